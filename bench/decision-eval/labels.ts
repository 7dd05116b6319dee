/** The hand-labelled decision set (`labels.json`): every message of six real sessions, judged by reading. */
import { readFileSync } from "node:fs";

export type Split = "tune" | "heldout";

export interface DecisionLabel {
  /** Who made the choice: the user (also when the agent restates it) or the agent. */
  who: "user" | "agent";
  chosen: string;
  rejected?: string;
  /** The earlier message whose decision this one restates or adopts. */
  restates?: string;
}

export interface LabelledMessage {
  id: string;
  session_id: string;
  ordinal: number;
  role: "user" | "assistant";
  excerpt: string;
  decision: DecisionLabel | null;
}

export interface LabelledSession {
  fixture: string;
  session_id: string;
  split: Split;
}

export interface DecisionLabels {
  sessions: LabelledSession[];
  messages: LabelledMessage[];
}

export function loadLabels(): DecisionLabels {
  return JSON.parse(readFileSync(new URL("./labels.json", import.meta.url), "utf8")) as DecisionLabels;
}
