import { createHmac } from "node:crypto";
import { parseJsonStrict } from "@wallet/contracts/safe-json";
import { depositRequest } from "@wallet/contracts/wallet-request";

/**
 * How long a large CLOSE_ROUND holds the gateway's event loop: the signature over the raw bytes, the
 * strict JSON parse and the schema (the worker parses the same body once more). Prints the median
 * of 7 runs per size. `pnpm bench:close-round-parse`
 */
const sizes = [1_000, 100_000, 600_000];
for (const bets of sizes) {
  const stakes = Array.from({ length: bets }, (_, i) => 100 + (i % 97) * 100);
  const coefficients = stakes.map((_, i) => (i % 3 ? 0 : 1 + (i % 500) / 100));
  const text = JSON.stringify({
    amount: 0,
    provider: "platform",
    provider_tx_id: "round-1-1-close-round",
    game: "crashGame",
    action: "CLOSE_ROUND",
    action_id: "round-1",
    attributes: [
      { name: "crashGameCashOutCoefficients", value: JSON.stringify(coefficients) },
      { name: "crashGameBets", value: JSON.stringify(stakes) },
    ],
  });
  const raw = Buffer.from(text);
  const runs: number[][] = [];
  for (let run = 0; run < 7; run++) {
    const t0 = performance.now();
    createHmac("sha256", "secret").update(raw).digest("hex");
    const t1 = performance.now();
    const json = parseJsonStrict(raw.toString("utf8"));
    const t2 = performance.now();
    if (!json.ok || !depositRequest.safeParse(json.value).success) throw new Error("the close did not parse");
    const t3 = performance.now();
    runs.push([t1 - t0, t2 - t1, t3 - t2, t3 - t0]);
  }
  const median = (column: number) => {
    const values = runs.map((run) => run[column] as number).sort((a, b) => a - b);
    return (values[3] as number).toFixed(1);
  };
  console.log(
    `${bets} bets, ${(raw.length / 1024).toFixed(0)} KiB: signature ${median(0)} ms, JSON ${median(1)} ms, schema ${median(2)} ms, total ${median(3)} ms (median of 7)`,
  );
}
