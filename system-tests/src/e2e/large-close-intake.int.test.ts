import { createHash, randomUUID } from "node:crypto";
import { closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type AppProcess,
  callGateway,
  operatorCall,
  operatorGet,
  scrapeOf,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";

/**
 * Issue 39: a CLOSE_ROUND past the ordinary body limit is never parsed by the gateway nor carried in
 * a ledger job. Its bytes cross Redis in 32 KiB pieces, the close intake reads and judges them a
 * piece at a time, stores the close in pieces (`close_pieces`) and closes its round with a call of a
 * few hundred bytes. Through the real gateway, worker and operator API, with Redis watched (MONITOR)
 * for any command of a close's size.
 */
const system = useTestSystem();
let gateway: AppProcess;
let worker: AppProcess;
let api: AppProcess;
/** The longest argument of any command this system's processes sent Redis, and its command. */
const largest = { bytes: 0, command: "" };
let monitor: Redis;
beforeAll(async () => {
  monitor = new Redis(inject("redisUrl"));
  const watching = await monitor.monitor();
  watching.on("monitor", (_time: string, args: string[]) => {
    if (!args.some((arg) => arg.includes(system.prefix))) return;
    for (const arg of args) {
      const bytes = Buffer.byteLength(arg, "latin1");
      if (bytes > largest.bytes) Object.assign(largest, { bytes, command: String(args[0]) });
    }
  });
  worker = await system.startWorker();
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);
afterAll(() => monitor?.disconnect());

const PIECE = 32 * 1024;
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const refused = async () =>
  (await operatorGet(api, "/v1/refused-closes?operatorId=1")).json.refused_closes as Array<
    Record<string, unknown>
  >;

/** A close whose `field` holds `filler` bytes (8 MiB in all), the rest of it a valid close of `round`. */
function paddedClose(round: string, field: string, filler: number) {
  const text = JSON.stringify({ ...closeRoundBody(round, [1_000], [2]), [field]: "PAD" });
  const [head, tail] = text.split('"PAD"') as [string, string];
  const room = 8 * 1024 * 1024 - Buffer.byteLength(head) - Buffer.byteLength(tail) - 2;
  return Buffer.concat([Buffer.from(`${head}"`), Buffer.alloc(room, filler), Buffer.from(`"${tail}`)]);
}

describe("a CLOSE_ROUND past the ordinary body limit, through the close intake", () => {
  it("8 MiB whose bytes are not UTF-8 in a field it reads: refused 400 and stored whole, in pieces, its bytes given back as sent", async () => {
    const round = `not-utf8-${randomUUID().slice(0, 8)}`;
    const raw = paddedClose(round, "action_id", 0xff);
    expect(raw.length).toBe(8 * 1024 * 1024);
    const answer = await callGateway(gateway, "/deposit", undefined, { raw, timeoutMs: 30_000 });
    const message =
      'a string holds bytes that are not valid UTF-8 (under the top-level key "action_id"); the body is not valid UTF-8 from byte ' +
      `${raw.indexOf(0xff)} on (stored with U+FFFD in place of each invalid sequence)`;
    expect([answer.status, answer.json]).toEqual([400, { code: 400, message }]);

    const [stored] = (await refused()).filter((row) => row.provider_tx_id === `${round}-1-close-round`);
    expect(stored).toMatchObject({
      reason: "malformed_body",
      message,
      body_bytes: raw.length,
      body_complete: false,
    });
    // The listing shows the body's start as text; the route gives every byte back, unchanged.
    expect(String(stored?.body).length).toBe(64 * 1024);
    expect(String(stored?.body).startsWith(raw.subarray(0, raw.indexOf(0xff)).toString())).toBe(true);
    const bytes = await fetch(
      `http://127.0.0.1:${api.port}/v1/refused-closes/${stored?.id}/body?operatorId=1`,
      {
        headers: { authorization: "Bearer test-operator-token" },
      },
    );
    expect(bytes.headers.get("content-type")).toBe("application/octet-stream");
    expect(sha(Buffer.from(await bytes.arrayBuffer()))).toBe(sha(raw));

    // The platform's resend of the same bytes gets the same answer, from what was stored.
    const again = await callGateway(gateway, "/deposit", undefined, { raw, timeoutMs: 30_000 });
    expect([again.status, again.text]).toEqual([answer.status, answer.text]);
    // Answered by the gateway from the stored answer: the intake took the close once.
    const intake = await scrapeOf(worker);
    expect(sampleSum(intake, "wallet_close_intake_total", { result: "refused" })).toBe(1);
    expect(sampleSum(intake, "wallet_close_intake_total")).toBe(1);
    const replays = await scrapeOf(gateway);
    expect(
      sampleSum(replays, "wallet_callback_replays_total", { action: "CLOSE_ROUND", kind: "replay" }),
    ).toBe(1);
  }, 60_000);

  it("8 MiB whose bytes are not UTF-8 in a field it does not read: taken, its round closed and its effects applied", async () => {
    const round = `padded-${randomUUID().slice(0, 8)}`;
    const answer = await callGateway(gateway, "/deposit", undefined, {
      raw: paddedClose(round, "padding", 0xff),
      timeoutMs: 30_000,
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({ provider_tx_id: `${round}-1-close-round` });
    const status = await sideEffectsApplied(api, round, 30_000);
    expect(status).toMatchObject({
      status: "closed",
      close: { bet_count: 1, stakes: [1_000], cash_out_coefficients: [2] },
    });
  }, 60_000);

  it("a manual close past 64 KiB is applied through the intake too, and a second one answers the first", async () => {
    const round = `manual-large-${randomUUID().slice(0, 8)}`;
    const stakes = Array.from({ length: 20_000 }, (_, i) => 100 + i);
    const body = {
      game: "crashGame",
      crashGameBets: JSON.stringify(stakes),
      crashGameCashOutCoefficients: JSON.stringify(stakes.map(() => 0)),
    };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(64 * 1024);
    const first = await operatorCall(api, "POST", `/v1/rounds/${round}/close?operatorId=1`, body);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ replayed: false, differs_from_first: false });
    const second = await operatorCall(api, "POST", `/v1/rounds/${round}/close?operatorId=1`, body);
    expect(second.json).toMatchObject({ replayed: true, differs_from_first: false, close: first.json.close });
    const { json } = await operatorGet(api, `/v1/rounds/${round}?operatorId=1`);
    expect(json.close).toMatchObject({ bet_count: 20_000, stakes });
  }, 60_000);

  it("a manual close past 64 KiB is audited by its request's size and digest, not its arrays: a small line the audit list returns (issue 42)", async () => {
    const round = `manual-audited-${randomUUID().slice(0, 8)}`;
    const stakes = Array.from({ length: 30_000 }, (_, i) => 1_000 + i);
    // The arrays as JSON in strings, in the request's own key order: what is sent is what the
    // route validates, so the digest of these bytes is the digest of the request it audits.
    const body = {
      crashGameCashOutCoefficients: JSON.stringify(stakes.map(() => 0)),
      crashGameBets: JSON.stringify(stakes),
      game: "crashGame",
      note: "arrays corrected by hand",
    };
    const sent = JSON.stringify(body);
    expect(Buffer.byteLength(sent)).toBeGreaterThan(128 * 1024);
    const closed = await operatorCall(api, "POST", `/v1/rounds/${round}/close?operatorId=1`, body);
    expect([closed.status, closed.json.replayed]).toEqual([200, false]);
    expect((await operatorGet(api, `/v1/rounds/${round}?operatorId=1`)).json.close).toMatchObject({
      bet_count: 30_000,
    });

    const trail = (await operatorGet(api, "/v1/audit?operatorId=1&limit=500")).json.actions as Array<{
      action: string;
      subject: string;
      detail: Record<string, unknown>;
    }>;
    const [line] = trail.filter((entry) => entry.action === "manual_close" && entry.subject === round);
    expect(line?.detail).toEqual({
      provider_tx_id: `${round}-1-manual`,
      replayed: false,
      differs_from_first: false,
      request: { omitted: true, bytes: Buffer.byteLength(sent), sha256: sha(Buffer.from(sent)) },
      answer: expect.objectContaining({ code: 200, data: closed.json.close }),
    });
    expect(Buffer.byteLength(JSON.stringify(line?.detail))).toBeLessThan(1024);
  }, 60_000);

  it("no Redis command the system sent was of a close's size, and no job was taken back", async () => {
    // Pieces of 32 KiB, each written once by the gateway and read by the intake; MONITOR writes a
    // byte that is not printable as four characters (\\xff), so a piece shows as at most 1 MiB.
    expect(largest.bytes).toBeGreaterThan(PIECE / 2);
    expect(largest.bytes).toBeLessThanOrEqual(4 * PIECE);
    const scrape = await scrapeOf(worker);
    expect(sampleSum(scrape, "wallet_jobs_stalled_total", { queue: "ledger" })).toBe(0);
    expect(sampleSum(scrape, "wallet_jobs_stalled_total", { queue: "close-intake" })).toBe(0);
  });
});
