/**
 * The record types a Codex rollout writes. Those listed as quiet are known and carry nothing cairn reads (token
 * counts, progress a later record states whole, UI bookkeeping), so they are skipped without being reported as new.
 */

/** A rollout line's `type` when it wraps a `payload`. */
export const ROLLOUT_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

/** The early Rust layout writes response items bare, without the envelope: these types say a line is one. */
export const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "local_shell_call_output",
  "web_search_call",
  "tool_search_call",
  "tool_search_output",
  "ghost_snapshot",
  "compaction",
  "image_generation_call",
  "agent_message",
  "additional_tools",
  "other",
]);

export const QUIET_EVENTS = new Set([
  "token_count",
  "agent_reasoning",
  "agent_reasoning_raw_content",
  "agent_reasoning_section_break",
  "task_started",
  "task_complete",
  "exec_command_begin",
  "exec_command_output_delta",
  "patch_apply_begin",
  "mcp_tool_call_begin",
  "mcp_tool_call_end",
  "web_search_begin",
  "web_search_end",
  "view_image_tool_call",
  "entered_review_mode",
  "exited_review_mode",
  "item_started",
  "thread_settings_applied",
  "guardian_assessment",
  "collab_agent_spawn_begin",
  "collab_agent_spawn_end",
  "collab_waiting_begin",
  "collab_waiting_end",
  "collab_close_begin",
  "collab_close_end",
  "sub_agent_activity",
  "dynamic_tool_call_request",
  "dynamic_tool_call_response",
  "undo_started",
  "undo_completed",
  "thread_goal_updated",
  "plan_update",
  "turn_diff",
  "background_event",
  "shutdown_complete",
]);

export const QUIET_ITEMS = new Set([
  "turn_context",
  "world_state",
  "token_usage_record",
  "inter_agent_communication",
  "inter_agent_communication_metadata",
]);
