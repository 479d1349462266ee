/**
 * A WIN or FREE_BET_WIN whose bet the ledger does not know is refused (400) and never resent. The
 * platform sends one only for a bet it was answered 200 for, so after a failover to a replica that
 * was behind, or a restore to a point, such a refusal is the trace of a lost BET. Its stored answer
 * is all that is left of it, and `idempotency_records` keeps no round or player: the message names
 * both (as JSON strings, so any id reads back whole), and `pnpm rounds:at-risk` reads them from it.
 */
export function unknownBetMessage(betId: string, roundId: string, userId: string): string {
  return `withdraw_provider_tx_id: bet ${betId} is unknown (action_id ${JSON.stringify(roundId)}, user_id ${JSON.stringify(userId)})`;
}

const quoted = String.raw`"(?:[^"\\]|\\.)*"`;
const unknownBetPattern = new RegExp(
  String.raw`^withdraw_provider_tx_id: bet (.*) is unknown \(action_id (${quoted}), user_id (${quoted})\)$`,
  "s",
);

/** The bet, round and player an `unknownBetMessage` names; undefined for any other message. */
export function readUnknownBetMessage(
  message: string,
): { betId: string; roundId: string; userId: string } | undefined {
  const found = unknownBetPattern.exec(message);
  if (!found) return undefined;
  try {
    return {
      betId: found[1] ?? "",
      roundId: JSON.parse(found[2] ?? "") as string,
      userId: JSON.parse(found[3] ?? "") as string,
    };
  } catch {
    return undefined;
  }
}
