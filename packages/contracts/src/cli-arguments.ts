import { z } from "zod";
import { idText, text } from "./fields.ts";
import { limits } from "./limits.ts";

/**
 * What the CLIs take, held to the same limits as the API (`limits.ts`): a command-line id is counted
 * in code points like any other, so `pnpm side-effects retry --round` takes every round a BET took,
 * and a token label the column cannot hold is refused before anything is written.
 */
export const cliArguments = {
  operator: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a positive integer")
    .refine((value) => Number(value) <= limits.operatorId.max, "must be a positive integer"),
  round: idText(limits.roundId),
  label: text(limits.tokenLabel),
  publicId: z
    .string()
    .regex(/^[0-9a-f]{12}$/, "must be a token's public id, 12 hex digits (pnpm tokens list)"),
} as const;

/** Why `value` of `option` is refused (`--round: must be at most 128 characters`), or undefined. */
export function argumentProblem(
  option: string,
  schema: (typeof cliArguments)[keyof typeof cliArguments],
  value: string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  const checked = schema.safeParse(value);
  // The first reason is enough for a person at a prompt.
  return checked.success ? undefined : `${option}: ${checked.error.issues[0]?.message ?? "is refused"}`;
}
