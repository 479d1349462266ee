import type { JsonProblem } from "../safe-json.ts";

/** What one reading of the body found, in text order. */
interface Findings {
  first?: JsonProblem;
  /** The first problem that refuses a close: in a field it reads, or located in none. */
  refusingIfClose?: JsonProblem;
  /** The first problem a close lets through: in a field it does not read. */
  ignorableIfClose?: JsonProblem;
  /** Nothing found later can change what this reading concludes. */
  settled: boolean;
}

/** What `parseJsonStrict` concludes of a body whose JSON is valid. */
export interface StrictOutcome {
  refused?: JsonProblem;
  ignored?: JsonProblem;
}

/**
 * The strict problems of a body read as a stream (`json-stream.ts`), kept for the two readings of
 * U+FFFD, since whether the bytes were valid UTF-8 is known only at the end: as a character like any
 * other, or as the stand-in for bytes that could not be read. Only the first problems matter
 * (`parseJsonStrict` stops at the first that refuses), so this is bounded whatever the body.
 */
export class StrictProblems {
  private readonly ifValid: Findings = { settled: false };
  private readonly ifInvalid: Findings = { settled: false };

  constructor(private readonly readField: (field: string) => boolean) {}

  /** Whether a problem found from now on could still change an outcome. */
  get active(): boolean {
    return !(this.ifValid.settled && this.ifInvalid.settled);
  }

  /** A problem under each reading (undefined: none), located by its top-level field. */
  found(ifValid: string | undefined, ifInvalid: string | undefined, field: string | undefined): void {
    this.record(this.ifValid, ifValid, field);
    this.record(this.ifInvalid, ifInvalid, field);
  }

  /** What `parseJsonStrict` concludes, once the body is known to be (in)valid UTF-8 and (not) a close. */
  outcome(invalidUtf8: boolean, close: boolean): StrictOutcome {
    const findings = invalidUtf8 ? this.ifInvalid : this.ifValid;
    if (!close) return findings.first ? { refused: findings.first } : {};
    if (findings.refusingIfClose) return { refused: findings.refusingIfClose };
    return findings.ignorableIfClose ? { ignored: findings.ignorableIfClose } : {};
  }

  private record(findings: Findings, message: string | undefined, field: string | undefined): void {
    if (message === undefined || findings.settled) return;
    const problem: JsonProblem = field === undefined ? { message } : { message, field };
    findings.first ??= problem;
    if (field === undefined || this.readField(field)) {
      findings.refusingIfClose = problem;
      findings.settled = true;
    } else findings.ignorableIfClose ??= problem;
  }
}
