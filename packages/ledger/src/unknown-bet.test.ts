import { describe, expect, it } from "vitest";
import { readUnknownBetMessage, unknownBetMessage } from "./unknown-bet.ts";

describe("the refusal of a WIN for an unknown bet names its round and player, read back whole", () => {
  it("reads back any ids, quotes, parentheses and the message's own words included", () => {
    for (const [betId, roundId, userId] of [
      ["b-1", "crash-1", "u-1"],
      ["bet (1) is unknown", 'round "x"), user_id "y"', "ü\\n\u2028 ) ("],
    ] as const)
      expect(readUnknownBetMessage(unknownBetMessage(betId, roundId, userId))).toEqual({
        betId,
        roundId,
        userId,
      });
  });

  it("reads nothing from the ledger's other refusals, or from the message before it named them", () => {
    for (const message of [
      "withdraw_provider_tx_id: bet b-1 is unknown",
      "withdraw_provider_tx_id: bet b-1 was rolled back before it arrived",
      "action_id: bet b-1 was placed in round r-2",
    ])
      expect(readUnknownBetMessage(message)).toBeUndefined();
  });
});
