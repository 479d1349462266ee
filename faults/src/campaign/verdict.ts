import type { Injected } from "./injectors/inject.ts";
import type { Schedule } from "./schedule/plan.ts";

/** Which of the checker's rules a violation breaks (the issue's numbering), or the faults' own. */
export type Rule =
  | "1 linearizable"
  | "2 stored once"
  | "2 journal explained"
  | "2 balances"
  | "3 effects"
  | "4 counters"
  | "fault"
  | "workload";

export interface Violation {
  rule: Rule;
  message: string;
  /** The smallest sub-history that shows it, printed one operation a line, when the rule can name one (rule 1). */
  witness?: string;
}

export interface CampaignVerdict {
  seed: number;
  minutes: number;
  plantedBug: string | null;
  schedule: Schedule;
  injected: Injected[];
  /** Operations in the history, by source and by final status. */
  operations: { total: number; platform: number; operator: number; byStatus: Record<string, number> };
  /** Players whose rule-1 search ran out of budget: neither passed nor failed. */
  unknownPlayers: string[];
  violations: Violation[];
  /** Seconds the whole campaign took, setup and checks included. */
  seconds: number;
}

export function passed(verdict: CampaignVerdict): boolean {
  return verdict.violations.length === 0;
}
