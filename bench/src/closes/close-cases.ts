import { closeRoundBody } from "@wallet/ledger/testing/callback-bodies";

/**
 * The closes `pnpm bench:closes` sends (issue 39): four sizes of valid close naming bets the wallet
 * never saw (the reconciliation then lists every one as a mismatch: the audit's case), and an 8 MiB
 * close padded with 0xFF bytes, not UTF-8, once in a field the close reads (refused: stored as refused,
 * answered 400) and once in a field it ignores (taken: its round closed).
 */
export const closeCaseNames = [
  "10k-bets",
  "100k-bets",
  "300k-bets",
  "620k-bets",
  "8mib-not-utf8-read",
  "8mib-not-utf8-ignored",
] as const;
export type CloseCaseName = (typeof closeCaseNames)[number];

export interface CloseToSend {
  raw: Buffer;
  /** What "stored" means for it: its round closed (`round_closes`), or a refusal row (`refused_closes`). */
  expect: "closed" | "refused";
}

const betCounts: Record<string, number> = {
  "10k-bets": 10_000,
  "100k-bets": 100_000,
  "300k-bets": 300_000,
  "620k-bets": 620_000,
};
const paddedFields: Record<string, string> = {
  "8mib-not-utf8-read": "action_id",
  "8mib-not-utf8-ignored": "padding",
};

/** Stakes of 1 to 1,000 units, three quarters cashed out (as the end-to-end large-close test sends). */
function betArrays(bets: number) {
  const stakes = Array.from({ length: bets }, (_, i) => 1_000 + ((i * 7919) % 999_000));
  const coefficients = Array.from({ length: bets }, (_, i) => (i % 4 === 0 ? 0 : 1 + ((i * 31) % 900) / 100));
  return { stakes, coefficients };
}

/** A close of `round` whose `field` holds 0xFF bytes, 8 MiB in all (the large-close-intake test's). */
function paddedClose(round: string, field: string): Buffer {
  const text = JSON.stringify({ ...closeRoundBody(round, [1_000], [2]), [field]: "PAD" });
  const [head, tail] = text.split('"PAD"') as [string, string];
  const room = 8 * 1024 * 1024 - Buffer.byteLength(head) - Buffer.byteLength(tail) - 2;
  return Buffer.concat([Buffer.from(`${head}"`), Buffer.alloc(room, 0xff), Buffer.from(`"${tail}`)]);
}

/** The bytes of case `name` for `round` (operator 1's close). */
export function closeFor(name: CloseCaseName, round: string): CloseToSend {
  const field = paddedFields[name];
  if (field) return { raw: paddedClose(round, field), expect: field === "padding" ? "closed" : "refused" };
  const { stakes, coefficients } = betArrays(betCounts[name] ?? 0);
  return { raw: Buffer.from(JSON.stringify(closeRoundBody(round, stakes, coefficients))), expect: "closed" };
}
