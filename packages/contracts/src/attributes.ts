import { z } from "zod";

/** One `attributes` entry: a name and a string value, as the contract carries them. */
export const attribute = z.object({
  name: z.string().min(1, "attribute name must not be empty").max(64),
  value: z.string().max(65_536, "attribute value is too long"),
});
export type Attribute = z.infer<typeof attribute>;

export const attributes = z.array(attribute).max(64, "at most 64 attributes");

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
