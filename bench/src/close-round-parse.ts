import { createHmac } from "node:crypto";
import { CloseReader } from "@wallet/contracts/close-stream/close-reader";
import { parseJsonStrict } from "@wallet/contracts/safe-json";
import { depositRequest } from "@wallet/contracts/wallet-request";

/**
 * What reading a CLOSE_ROUND costs an event loop. Whole (a close up to 64 KiB, read by the gateway):
 * the signature, the strict JSON parse and the schema, in one turn. Streamed (a larger close, read by
 * the worker's close intake): the same verdict a 32 KiB piece per turn; printed are the whole read,
 * its longest turn and how far the heap grew. Medians of 7 runs per size. `pnpm bench:close-round-parse`
 */
const sizes = [1_000, 100_000, 600_000];
const PIECE = 32 * 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

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
  const whole: number[][] = [];
  const streamed: number[][] = [];
  for (let run = 0; run < 7; run++) {
    const t0 = performance.now();
    createHmac("sha256", "secret").update(raw).digest("hex");
    const t1 = performance.now();
    const json = parseJsonStrict(raw.toString("utf8"));
    const t2 = performance.now();
    if (!json.ok || !depositRequest.safeParse(json.value).success) throw new Error("the close did not parse");
    const t3 = performance.now();
    whole.push([t1 - t0, t2 - t1, t3 - t2, t3 - t0]);

    const reader = new CloseReader();
    const heap = process.memoryUsage().heapUsed;
    let longest = 0;
    let grew = 0;
    const s0 = performance.now();
    for (let at = 0; at < raw.length; at += PIECE) {
      const started = performance.now();
      reader.write(raw.subarray(at, at + PIECE));
      longest = Math.max(longest, performance.now() - started);
      grew = Math.max(grew, process.memoryUsage().heapUsed - heap);
    }
    const started = performance.now();
    if (reader.finish().kind !== "close") throw new Error("the streamed close was not taken");
    longest = Math.max(longest, performance.now() - started);
    streamed.push([performance.now() - s0, longest, grew / 1024 / 1024]);
  }
  const column = (rows: number[][], index: number) =>
    median(rows.map((row) => row[index] as number)).toFixed(1);
  console.log(
    `${bets} bets, ${(raw.length / 1024).toFixed(0)} KiB: whole: signature ${column(whole, 0)} ms, JSON ${column(whole, 1)} ms, schema ${column(whole, 2)} ms, total ${column(whole, 3)} ms in one turn; streamed: ${column(streamed, 0)} ms in all, longest turn ${column(streamed, 1)} ms, heap grew ${column(streamed, 2)} MiB (median of 7)`,
  );
}
