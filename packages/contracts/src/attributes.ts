import { z } from "zod";
import { text } from "./fields.ts";
import { limits } from "./limits.ts";

/** One `attributes` entry: a name and a string value, as the contract carries them (`limits.ts`). */
export const attribute = z.object({
  name: text(limits.attributeName),
  value: text(limits.attributeValue),
});
export type Attribute = z.infer<typeof attribute>;

export const attributes = z
  .array(attribute)
  .max(limits.attributes.max, `at most ${limits.attributes.max} attributes`);

export const attributeNames = {
  coefficient: "coefficient",
  bonus: "bonus",
  createDate: "createDate",
  cashOutCoefficients: "crashGameCashOutCoefficients",
  bets: "crashGameBets",
} as const;

export function findAttribute(list: readonly Attribute[], name: string): string | undefined {
  return list.find((entry) => entry.name === name)?.value;
}
