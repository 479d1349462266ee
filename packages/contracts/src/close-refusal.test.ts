import { describe, expect, it } from "vitest";
import { closeRefusalReason } from "./close-refusal.ts";
import { depositRequest } from "./wallet-request.ts";

const close = (over: Record<string, unknown>, coefficients = "[0, 2]", stakes = "[100, 200]") => ({
  action: "CLOSE_ROUND",
  provider_tx_id: "r-1-close-round",
  action_id: "r",
  game: "crashGame",
  attributes: [
    { name: "crashGameCashOutCoefficients", value: coefficients },
    { name: "crashGameBets", value: stakes },
  ],
  ...over,
});

function reasonOf(body: unknown) {
  const result = depositRequest.safeParse(body);
  if (result.success) throw new Error("expected a refusal");
  return closeRefusalReason(result.error);
}

describe("closeRefusalReason", () => {
  it("names each way a close cannot be understood", () => {
    expect(reasonOf(close({ provider_tx_id: "" }))).toBe("bad_id");
    expect(reasonOf(close({ action_id: "r".repeat(129) }))).toBe("bad_id");
    expect(reasonOf(close({ game: undefined }))).toBe("bad_id");
    expect(reasonOf(close({ attributes: [] }))).toBe("missing_array");
    expect(reasonOf(close({}, "[0, 2"))).toBe("unreadable_array");
    expect(reasonOf(close({}, '[0, "2"]'))).toBe("unreadable_array");
    expect(reasonOf(close({}, "[0, 1e21]"))).toBe("out_of_range");
    expect(reasonOf(close({}, "[0, 2]", "[100, -1]"))).toBe("out_of_range");
    expect(reasonOf(close({}, "[0, 2]", "[100, 9007199254740993]"))).toBe("out_of_range");
    expect(reasonOf(close({}, "[0]"))).toBe("misaligned");
  });
});
