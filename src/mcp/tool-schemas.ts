/**
 * The tools' JSON schemas as `cairn mcp` lists them and checks arguments against them, written by
 * `node scripts/mcp-schemas.ts` from the zod definitions (src/mcp/tools/*-schema.ts). Do not edit by hand:
 * test/mcp/protocol.test.ts fails when they differ from the zod definitions' conversion.
 */
import type { JsonSchema } from "./check-args.ts";

export const TOOL_SCHEMAS: Record<string, { inputSchema: JsonSchema; outputSchema: JsonSchema }> = {
  search_history: {
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          maxLength: 1000,
          description: 'cairn query, e.g. "error: TS2554", "test:fail project:api since:7d", "decision: sqlite"',
        },
        limit: {
          default: 10,
          description: "hits to return (1–50); fewer are shown if they would exceed the size bound",
          type: "integer",
          minimum: 1,
          maximum: 50,
        },
        mode: {
          default: "hybrid",
          description: "hybrid: words and meaning fused (default); lexical: words only; vector: meaning only",
          type: "string",
          enum: ["hybrid", "lexical", "vector"],
        },
      },
      required: ["query"],
    },
    outputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        query: {
          type: "string",
        },
        mode: {
          type: "string",
          description: "what actually ranked the hits",
        },
        notice: {
          description: "why meaning was not used, when it was not",
          type: ["string", "null"],
        },
        hits: {
          type: "array",
          items: {
            type: "object",
            properties: {
              event_id: {
                type: "string",
              },
              session_id: {
                type: "string",
              },
              provider: {
                type: "string",
              },
              project: {
                type: ["string", "null"],
              },
              timestamp: {
                type: ["string", "null"],
              },
              event_type: {
                type: "string",
              },
              status: {
                type: ["string", "null"],
              },
              snippet: {
                type: "string",
              },
              evidence: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    event_id: {
                      type: "string",
                    },
                    event_type: {
                      type: "string",
                    },
                    text: {
                      type: "string",
                    },
                  },
                  required: ["event_id", "event_type", "text"],
                  additionalProperties: false,
                },
              },
              why: {
                type: "string",
              },
              source_file: {
                type: "string",
              },
              source_line: {
                type: "number",
              },
            },
            required: [
              "event_id",
              "session_id",
              "provider",
              "project",
              "timestamp",
              "event_type",
              "status",
              "snippet",
              "evidence",
              "why",
              "source_file",
              "source_line",
            ],
            additionalProperties: false,
          },
        },
        found: {
          type: "number",
          description: "hits found before the size bound",
        },
        truncated: {
          description: "what was left out and how to get it",
          type: ["string", "null"],
        },
      },
      required: ["query", "mode", "notice", "hits", "found", "truncated"],
      additionalProperties: false,
    },
  },
  session_timeline: {
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        session: {
          description: "session id or a unique prefix of one (search_history hits and resume_brief name them)",
          type: "string",
          minLength: 4,
          maxLength: 200,
        },
        around: {
          description: "an event id (or unique prefix): show the rows around it; implies its session",
          type: "string",
          minLength: 4,
          maxLength: 100,
        },
        from: {
          description: "first position (@N) to show",
          type: "integer",
          minimum: 0,
          maximum: 9007199254740991,
        },
        to: {
          description: "last position (@N) to show",
          type: "integer",
          minimum: 0,
          maximum: 9007199254740991,
        },
        max_rows: {
          default: 40,
          description: "rows at most (1–200); fewer if they would exceed the size bound",
          type: "integer",
          minimum: 1,
          maximum: 200,
        },
        all: {
          default: false,
          description: "also list file actions and commands as rows of their own",
          type: "boolean",
        },
      },
    },
    outputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        session: {
          type: "object",
          properties: {
            session_id: {
              type: "string",
            },
            provider: {
              type: "string",
            },
            kind: {
              type: "string",
            },
            project: {
              type: ["string", "null"],
            },
            cwd: {
              type: ["string", "null"],
            },
            title: {
              type: ["string", "null"],
            },
            started_at: {
              type: ["string", "null"],
            },
            updated_at: {
              type: ["string", "null"],
            },
            events: {
              type: "number",
            },
          },
          required: ["session_id", "provider", "kind", "project", "cwd", "title", "started_at", "updated_at", "events"],
          additionalProperties: false,
        },
        window: {
          type: "object",
          properties: {
            from: {
              type: "number",
            },
            to: {
              type: "number",
            },
          },
          required: ["from", "to"],
          additionalProperties: false,
          description: "positions shown",
        },
        rows: {
          type: "array",
          items: {
            type: "object",
            properties: {
              event_id: {
                type: "string",
              },
              ordinal: {
                type: "number",
                description: "position in its session (@N)",
              },
              timestamp: {
                type: ["string", "null"],
              },
              event_type: {
                type: "string",
              },
              mark: {
                type: "string",
                description:
                  "prompt, reply, call, output, error, test_pass, test_fail, decision, resume, note, file, command",
              },
              summary: {
                type: "string",
              },
              depth: {
                type: "number",
                description: "1 for rows derived from the row above (errors, tests, decisions)",
              },
              sidechain: {
                type: "boolean",
              },
              branch_from: {
                description: "the event this row branches from, when it does not follow the row before",
                type: ["string", "null"],
              },
              status: {
                type: ["string", "null"],
              },
              session_id: {
                type: "string",
              },
              provider: {
                type: "string",
              },
            },
            required: [
              "event_id",
              "ordinal",
              "timestamp",
              "event_type",
              "mark",
              "summary",
              "depth",
              "sidechain",
              "branch_from",
              "status",
            ],
            additionalProperties: false,
          },
        },
        earlier: {
          anyOf: [
            {
              type: "object",
              properties: {
                to: {
                  type: "number",
                },
              },
              required: ["to"],
              additionalProperties: false,
            },
            {
              type: "null",
            },
          ],
          description: "call again with this `to` for the rows before",
        },
        later: {
          anyOf: [
            {
              type: "object",
              properties: {
                from: {
                  type: "number",
                },
              },
              required: ["from"],
              additionalProperties: false,
            },
            {
              type: "null",
            },
          ],
          description: "call again with this `from` for the rows after",
        },
        truncated: {
          type: ["string", "null"],
        },
      },
      required: ["session", "window", "rows", "earlier", "later", "truncated"],
      additionalProperties: false,
    },
  },
  get_event: {
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        event_id: {
          type: "string",
          minLength: 4,
          maxLength: 100,
          description: "event id or a unique prefix of one; [e:ID] is accepted",
        },
        offset: {
          default: 0,
          description: "first character of the text to return (to page through long text)",
          type: "integer",
          minimum: 0,
          maximum: 9007199254740991,
        },
        max_chars: {
          default: 6000,
          description: "characters of text to return (100–12000)",
          type: "integer",
          minimum: 100,
          maximum: 12000,
        },
      },
      required: ["event_id"],
    },
    outputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        event: {
          type: "object",
          properties: {
            event_id: {
              type: "string",
            },
            session_id: {
              type: "string",
            },
            provider: {
              type: "string",
            },
            ordinal: {
              type: "number",
            },
            turn: {
              type: "number",
            },
            timestamp: {
              type: ["string", "null"],
            },
            role: {
              type: ["string", "null"],
            },
            event_type: {
              type: "string",
            },
            tool_name: {
              type: ["string", "null"],
            },
            command: {
              type: ["string", "null"],
            },
            file_path: {
              type: ["string", "null"],
            },
            status: {
              type: ["string", "null"],
            },
            parent_event_id: {
              type: ["string", "null"],
            },
            source_file: {
              type: "string",
            },
            source_line: {
              type: "number",
            },
          },
          required: [
            "event_id",
            "session_id",
            "provider",
            "ordinal",
            "turn",
            "timestamp",
            "role",
            "event_type",
            "tool_name",
            "command",
            "file_path",
            "status",
            "parent_event_id",
            "source_file",
            "source_line",
          ],
          additionalProperties: false,
        },
        meta: {
          type: "object",
          propertyNames: {
            type: "string",
          },
          additionalProperties: {},
        },
        meta_omitted: {
          type: "array",
          items: {
            type: "string",
          },
          description: "meta keys left out for size",
        },
        text: {
          type: "string",
        },
        text_range: {
          type: "object",
          properties: {
            offset: {
              type: "number",
            },
            end: {
              type: "number",
            },
            length: {
              type: "number",
            },
          },
          required: ["offset", "end", "length"],
          additionalProperties: false,
        },
        next_offset: {
          description: "call again with this offset for the rest of the text",
          type: ["number", "null"],
        },
        edges: {
          type: "object",
          properties: {
            out: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  edge_type: {
                    type: "string",
                  },
                  other: {
                    type: "string",
                    description: "the id at the other end: an event, an entity (kind:key) or a session",
                  },
                  other_kind: {
                    type: "string",
                    enum: ["event", "entity", "session", "unknown"],
                  },
                  other_type: {
                    description: "event type, entity kind or session provider",
                    type: ["string", "null"],
                  },
                  display: {
                    type: "string",
                    description: "first line of the event, the entity's name, or the session's title",
                  },
                  meta: {
                    type: "object",
                    propertyNames: {
                      type: "string",
                    },
                    additionalProperties: {},
                  },
                },
                required: ["edge_type", "other", "other_kind", "other_type", "display"],
                additionalProperties: false,
              },
            },
            in: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  edge_type: {
                    type: "string",
                  },
                  other: {
                    type: "string",
                    description: "the id at the other end: an event, an entity (kind:key) or a session",
                  },
                  other_kind: {
                    type: "string",
                    enum: ["event", "entity", "session", "unknown"],
                  },
                  other_type: {
                    description: "event type, entity kind or session provider",
                    type: ["string", "null"],
                  },
                  display: {
                    type: "string",
                    description: "first line of the event, the entity's name, or the session's title",
                  },
                  meta: {
                    type: "object",
                    propertyNames: {
                      type: "string",
                    },
                    additionalProperties: {},
                  },
                },
                required: ["edge_type", "other", "other_kind", "other_type", "display"],
                additionalProperties: false,
              },
            },
          },
          required: ["out", "in"],
          additionalProperties: false,
        },
        edges_cut: {
          type: ["string", "null"],
        },
      },
      required: ["event", "meta", "meta_omitted", "text", "text_range", "next_offset", "edges", "edges_cut"],
      additionalProperties: false,
    },
  },
  resume_brief: {
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        session: {
          description: 'session id, a unique prefix of one, or "latest" (the default)',
          type: "string",
          minLength: 1,
          maxLength: 200,
        },
        cwd: {
          description:
            "with latest: the project folder whose latest main session to brief (e.g. your working directory)",
          type: "string",
          minLength: 1,
          maxLength: 4096,
        },
        budget_tokens: {
          description: "brief size in tokens (500–4000)",
          type: "integer",
          minimum: 500,
          maximum: 4000,
        },
        ratio: {
          description: "brief size as a share of the session (e.g. 0.05), capped at 4000 tokens",
          type: "number",
          exclusiveMinimum: 0,
          maximum: 1,
        },
        at: {
          description: "event id (or prefix): the brief as of that event",
          type: "string",
          minLength: 4,
          maxLength: 100,
        },
        step: {
          description: "the brief as of step N's checkpoint, with that step's profile",
          type: "integer",
          minimum: 0,
          maximum: 9007199254740991,
        },
      },
    },
    outputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        session_id: {
          type: "string",
        },
        at: {
          type: "string",
          description: "the event the brief is as of",
        },
        step: {
          type: ["number", "null"],
        },
        budget_tokens: {
          type: "number",
        },
        tokens: {
          type: "number",
        },
        original_tokens: {
          type: "number",
          description: "estimated tokens of the session up to `at`",
        },
        ratio: {
          type: "number",
        },
        text: {
          type: "string",
          description: "the brief (markdown), citing events as [e:ID]",
        },
        sections: {
          type: "array",
          items: {
            type: "object",
            properties: {
              name: {
                type: "string",
              },
              tokens: {
                type: "number",
              },
              items: {
                type: "number",
              },
              cites: {
                type: "array",
                items: {
                  type: "string",
                },
              },
            },
            required: ["name", "tokens", "items", "cites"],
            additionalProperties: false,
          },
        },
        citations: {
          type: "array",
          items: {
            type: "object",
            properties: {
              event_id: {
                type: "string",
              },
              ordinal: {
                type: "number",
              },
              event_type: {
                type: "string",
              },
              source_file: {
                type: "string",
              },
              source_line: {
                type: "number",
              },
            },
            required: ["event_id", "ordinal", "event_type", "source_file", "source_line"],
            additionalProperties: false,
          },
          description: "the cited events in timeline order, as many as fit beside the text",
        },
        citations_total: {
          type: "number",
        },
        validation: {
          type: "object",
          properties: {
            ok: {
              type: "boolean",
            },
            coverage: {
              type: "number",
            },
            entity_overlap: {
              type: "number",
            },
            missing: {
              type: "array",
              items: {
                type: "string",
              },
            },
          },
          required: ["ok", "coverage", "entity_overlap", "missing"],
          additionalProperties: false,
        },
        fallback: {
          type: "array",
          items: {
            type: "object",
            properties: {
              step: {
                type: "string",
              },
              budget_tokens: {
                type: "number",
              },
              at: {
                type: "string",
              },
              tokens: {
                type: "number",
              },
              validation: {
                type: "object",
                properties: {
                  ok: {
                    type: "boolean",
                  },
                  coverage: {
                    type: "number",
                  },
                  entity_overlap: {
                    type: "number",
                  },
                  missing: {
                    type: "array",
                    items: {
                      type: "string",
                    },
                  },
                },
                required: ["ok", "coverage", "entity_overlap", "missing"],
                additionalProperties: false,
              },
            },
            required: ["step", "budget_tokens", "at", "tokens", "validation"],
            additionalProperties: false,
          },
        },
        source: {
          type: "object",
          properties: {
            file: {
              type: "string",
            },
            first_line: {
              type: "number",
            },
            last_line: {
              type: "number",
            },
          },
          required: ["file", "first_line", "last_line"],
          additionalProperties: false,
        },
        budget_note: {
          type: ["string", "null"],
        },
        truncated: {
          type: ["string", "null"],
        },
      },
      required: [
        "session_id",
        "at",
        "step",
        "budget_tokens",
        "tokens",
        "original_tokens",
        "ratio",
        "text",
        "sections",
        "citations",
        "citations_total",
        "validation",
        "fallback",
        "source",
        "budget_note",
        "truncated",
      ],
      additionalProperties: false,
    },
  },
  list_threads: {
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        project: {
          description: "keep threads with a session in this project (folder name, or part of the working directory)",
          type: "string",
          minLength: 1,
          maxLength: 200,
        },
        include_single: {
          default: false,
          description: "also list sessions that joined nothing, as threads of one",
          type: "boolean",
        },
        limit: {
          default: 10,
          description: "threads to return (1–50)",
          type: "integer",
          minimum: 1,
          maximum: 50,
        },
      },
    },
    outputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        total: {
          type: "number",
          description: "threads that matched before the limit",
        },
        threads: {
          type: "array",
          items: {
            type: "object",
            properties: {
              thread_id: {
                type: "string",
              },
              label: {
                type: "string",
              },
              label_reason: {
                type: "string",
              },
              started_at: {
                type: ["string", "null"],
              },
              updated_at: {
                type: ["string", "null"],
              },
              providers: {
                type: "array",
                items: {
                  type: "string",
                },
              },
              projects: {
                type: "array",
                items: {
                  type: "string",
                },
              },
              sessions: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    session_id: {
                      type: "string",
                    },
                    provider: {
                      type: "string",
                    },
                    kind: {
                      type: "string",
                    },
                    project: {
                      type: ["string", "null"],
                    },
                    title: {
                      type: ["string", "null"],
                    },
                    started_at: {
                      type: ["string", "null"],
                    },
                    updated_at: {
                      type: ["string", "null"],
                    },
                    folded_into: {
                      type: ["string", "null"],
                    },
                  },
                  required: [
                    "session_id",
                    "provider",
                    "kind",
                    "project",
                    "title",
                    "started_at",
                    "updated_at",
                    "folded_into",
                  ],
                  additionalProperties: false,
                },
              },
              sessions_total: {
                type: "number",
              },
              shared: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    entity_id: {
                      type: "string",
                    },
                    kind: {
                      type: "string",
                    },
                    display: {
                      type: "string",
                    },
                    sessions: {
                      type: "number",
                    },
                  },
                  required: ["entity_id", "kind", "display", "sessions"],
                  additionalProperties: false,
                },
              },
              shared_total: {
                type: "number",
              },
            },
            required: [
              "thread_id",
              "label",
              "label_reason",
              "started_at",
              "updated_at",
              "providers",
              "projects",
              "sessions",
              "sessions_total",
              "shared",
              "shared_total",
            ],
            additionalProperties: false,
          },
        },
        truncated: {
          type: ["string", "null"],
        },
      },
      required: ["total", "threads", "truncated"],
      additionalProperties: false,
    },
  },
  thread_timeline: {
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        thread: {
          type: "string",
          minLength: 3,
          maxLength: 100,
          description: "thread id or a unique prefix of one (list_threads names them)",
        },
        start_row: {
          description: "index of the first row to show (0 = the thread's start)",
          type: "integer",
          minimum: 0,
          maximum: 9007199254740991,
        },
        max_rows: {
          default: 40,
          description: "rows at most (1–200); fewer if they would exceed the size bound",
          type: "integer",
          minimum: 1,
          maximum: 200,
        },
        all: {
          default: false,
          description: "also list file actions and commands as rows of their own",
          type: "boolean",
        },
      },
      required: ["thread"],
    },
    outputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        thread_id: {
          type: "string",
        },
        label: {
          type: "string",
        },
        sessions: {
          type: "array",
          items: {
            type: "object",
            properties: {
              session_id: {
                type: "string",
              },
              provider: {
                type: "string",
              },
              project: {
                type: ["string", "null"],
              },
            },
            required: ["session_id", "provider", "project"],
            additionalProperties: false,
          },
        },
        total_rows: {
          type: "number",
        },
        window: {
          type: "object",
          properties: {
            start_row: {
              type: "number",
            },
            end_row: {
              type: "number",
              description: "exclusive",
            },
          },
          required: ["start_row", "end_row"],
          additionalProperties: false,
        },
        rows: {
          type: "array",
          items: {
            type: "object",
            properties: {
              event_id: {
                type: "string",
              },
              ordinal: {
                type: "number",
                description: "position in its session (@N)",
              },
              timestamp: {
                type: ["string", "null"],
              },
              event_type: {
                type: "string",
              },
              mark: {
                type: "string",
                description:
                  "prompt, reply, call, output, error, test_pass, test_fail, decision, resume, note, file, command",
              },
              summary: {
                type: "string",
              },
              depth: {
                type: "number",
                description: "1 for rows derived from the row above (errors, tests, decisions)",
              },
              sidechain: {
                type: "boolean",
              },
              branch_from: {
                description: "the event this row branches from, when it does not follow the row before",
                type: ["string", "null"],
              },
              status: {
                type: ["string", "null"],
              },
              session_id: {
                type: "string",
              },
              provider: {
                type: "string",
              },
            },
            required: [
              "event_id",
              "ordinal",
              "timestamp",
              "event_type",
              "mark",
              "summary",
              "depth",
              "sidechain",
              "branch_from",
              "status",
            ],
            additionalProperties: false,
          },
        },
        earlier: {
          anyOf: [
            {
              type: "object",
              properties: {
                start_row: {
                  type: "number",
                },
              },
              required: ["start_row"],
              additionalProperties: false,
            },
            {
              type: "null",
            },
          ],
        },
        later: {
          anyOf: [
            {
              type: "object",
              properties: {
                start_row: {
                  type: "number",
                },
              },
              required: ["start_row"],
              additionalProperties: false,
            },
            {
              type: "null",
            },
          ],
        },
        truncated: {
          type: ["string", "null"],
        },
      },
      required: ["thread_id", "label", "sessions", "total_rows", "window", "rows", "earlier", "later", "truncated"],
      additionalProperties: false,
    },
  },
};
