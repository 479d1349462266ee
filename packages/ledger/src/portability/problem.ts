/** One construct outside the common dialect, found in a statement (`check.ts`, `reserved-words.ts`). */
export interface PortabilityProblem {
  construct: string;
  why: string;
  sources: string[];
  /** The statement (literals blanked), around what matched. */
  excerpt: string;
}
