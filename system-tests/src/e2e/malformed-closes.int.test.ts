import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  operatorCall,
  operatorGet,
  scrapeOf,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";

/**
 * A CLOSE_ROUND is the only report of its round and the platform never resends a 4xx. A flaw the
 * strict JSON check finds in a field the close does not read lets the close through; a close
 * refused before its schema anyway (a flaw in a field it reads, not JSON at all) is stored, listed
 * and recoverable like one its schema refused. Through the real gateway, worker and operator API.
 */
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker({ LOYALTY_POINTS_PER_1000: "1" });
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

const refusals = (reason: string) =>
  scrapeOf(gateway).then((scrape) => sampleSum(scrape, "wallet_close_refusals_total", { reason }));
const refused = async () =>
  (await operatorGet(api, "/v1/refused-closes?operatorId=1")).json.refused_closes as Array<
    Record<string, unknown>
  >;
const roundOf = async (round: string) => (await operatorGet(api, `/v1/rounds/${round}?operatorId=1`)).json;
/** The close's JSON text with `replacement` for the first `written`, which must be there. */
const edited = (round: string, stake: number, written: string, replacement: string) => {
  const text = JSON.stringify(closeRoundBody(round, [stake], [0]));
  expect(text).toContain(written);
  return text.replace(written, replacement);
};
/** The bytes of `text` with one byte that is not UTF-8 right after `after`. */
const withInvalidByte = (text: string, after: string) => {
  const at = text.indexOf(after) + after.length;
  expect(at).toBeGreaterThanOrEqual(after.length);
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff]), Buffer.from(text.slice(at))]);
};
const closed = (stake: number) => ({
  status: "closed",
  close: { bet_count: 1, stakes: [stake], cash_out_coefficients: [0] },
  reconciliation: { status: "matched", differences: [] },
});

describe("every refused close, whatever refused it, is listed and recoverable", () => {
  it("a close whose only flaw is in a field it does not read is taken: 200 and the round's effects applied", async () => {
    const player = await authedPlayer(system, gateway, { balance: 100_000n });
    const cases = [
      {
        round: "flaw-repeated-provider",
        stake: 1_000,
        written: '"provider":"platform-sim"',
        as: '"provider":"platform-sim","provider":"other"',
      },
      {
        round: "flaw-escaped-provider",
        stake: 2_000,
        written: '"provider":"platform-sim"',
        as: '"provider":"platform-\\u0032"',
      },
    ];
    const bodies: Array<[string, number, string | Buffer]> = cases.map((one) => [
      one.round,
      one.stake,
      edited(one.round, one.stake, one.written, one.as),
    ]);
    const utf8Round = "flaw-invalid-utf8-provider";
    bodies.push([
      utf8Round,
      4_000,
      withInvalidByte(JSON.stringify(closeRoundBody(utf8Round, [4_000], [0])), '"provider":"platform-'),
    ]);

    for (const [round, stake, raw] of bodies) {
      await callGateway(gateway, "/withdraw", betBody(player, { amount: stake, action_id: round }));
      const answer = await callGateway(gateway, "/deposit", undefined, { raw });
      expect([round, answer.status, answer.json]).toEqual([
        round,
        200,
        {
          code: 200,
          message: "OK",
          data: { operator_tx_id: expect.any(String), provider_tx_id: `${round}-1-close-round` },
        },
      ]);
      expect(await sideEffectsApplied(api, round)).toMatchObject(closed(stake));
    }
    expect((await operatorGet(api, `/v1/players/${player.userId}?operatorId=1`)).json).toMatchObject({
      loyalty_points: 7,
      rg: [{ staked: 7_000, won: 0, rounds: 3 }],
    });
    expect(await countRows(system.ledger, "refused_closes")).toBe(0);
    expect(await refusals("malformed_body")).toBe(0);
  });

  it("a close refused before its schema is stored as malformed_body before its 400, listed with its round, and a manual close resolves it", async () => {
    const player = await authedPlayer(system, gateway, { balance: 100_000n });
    const twice = "malformed-action-id-twice";
    const cut = "malformed-not-json";
    const badBytes = "malformed-invalid-utf8-attributes";
    for (const [round, stake] of [
      [twice, 8_000],
      [cut, 16_000],
      [badBytes, 32_000],
    ] as const)
      await callGateway(gateway, "/withdraw", betBody(player, { amount: stake, action_id: round }));

    // Two values for the round: which did the platform mean? (JSON.parse would take the last.)
    const twiceText = edited(
      twice,
      8_000,
      `"action_id":"${twice}"`,
      `"action_id":"elsewhere","action_id":"${twice}"`,
    );
    const twiceAnswer = await callGateway(gateway, "/deposit", undefined, { raw: twiceText });
    expect([twiceAnswer.status, twiceAnswer.json]).toEqual([
      400,
      {
        code: 400,
        message: 'key "action_id" appears twice in one object (under the top-level key "action_id")',
      },
    ]);
    // The same bytes again (a replay): answered alike, stored once.
    expect((await callGateway(gateway, "/deposit", undefined, { raw: twiceText })).text).toBe(
      twiceAnswer.text,
    );

    // Cut short on the way: not JSON at all, but its bytes name CLOSE_ROUND and its round.
    const full = JSON.stringify(closeRoundBody(cut, [16_000], [0]));
    const cutText = full.slice(0, full.indexOf('"attributes"') + 20);
    const cutAnswer = await callGateway(gateway, "/deposit", undefined, { raw: cutText });
    expect([cutAnswer.status, cutAnswer.json]).toEqual([
      400,
      { code: 400, message: "body is not valid JSON" },
    ]);

    // A byte that is not UTF-8 in the stakes, which the close reads.
    const badText = JSON.stringify(closeRoundBody(badBytes, [32_000], [0]));
    const badRaw = withInvalidByte(badText, '"value":"[32');
    const offset = badText.indexOf('"value":"[32') + '"value":"[32'.length;
    const badAnswer = await callGateway(gateway, "/deposit", undefined, { raw: badRaw });
    expect([badAnswer.status, badAnswer.json]).toEqual([
      400,
      {
        code: 400,
        message: `a string holds bytes that are not valid UTF-8 (under the top-level key "attributes"); the body is not valid UTF-8 from byte ${offset} on (stored with U+FFFD in place of each invalid sequence)`,
      },
    ]);

    // A WIN with a repeated key is no close: an ordinary 400, nothing stored.
    const win = JSON.stringify(betBody(player, { action: "WIN", amount: 1, action_id: twice })).replace(
      '"amount":1',
      '"amount":1,"amount":2',
    );
    expect(win).toContain('"amount":2');
    const winAnswer = await callGateway(gateway, "/deposit", undefined, { raw: win });
    expect([winAnswer.status, winAnswer.json]).toEqual([
      400,
      { code: 400, message: 'key "amount" appears twice in one object' },
    ]);

    expect(await refusals("malformed_body")).toBe(4);
    const listed = await refused();
    expect(listed).toEqual([
      expect.objectContaining({
        round_id: badBytes,
        provider_tx_id: `${badBytes}-1-close-round`,
        reason: "malformed_body",
        message: badAnswer.json.message,
        body: badRaw.toString("utf8"), // as decoded: U+FFFD where the invalid byte was
        resolved_at: null,
      }),
      expect.objectContaining({
        round_id: cut,
        provider_tx_id: `${cut}-1-close-round`,
        reason: "malformed_body",
        message: "body is not valid JSON",
        body: cutText,
      }),
      expect.objectContaining({
        round_id: twice,
        provider_tx_id: `${twice}-1-close-round`,
        reason: "malformed_body",
        message: twiceAnswer.json.message,
        body: twiceText,
      }),
    ]);
    expect(String(listed[0]?.body)).toContain("\ufffd");
    for (const round of [twice, cut, badBytes])
      expect(await roundOf(round)).toMatchObject({ status: "open", side_effects: null });
    expect(await countRows(system.ledger, "round_closes")).toBe(3); // the first test's three

    // The manual close of each round applies its effects once and resolves its refusal.
    for (const [round, stake] of [
      [twice, 8_000],
      [cut, 16_000],
    ] as const) {
      const applied = await operatorCall(api, "POST", `/v1/rounds/${round}/close?operatorId=1`, {
        crashGameCashOutCoefficients: [0],
        crashGameBets: [stake],
      });
      expect([round, applied.status, applied.json]).toMatchObject([
        round,
        200,
        { round_id: round, replayed: false, refused_closes_resolved: 1 },
      ]);
      expect(await sideEffectsApplied(api, round)).toMatchObject(closed(stake));
    }
    expect((await refused()).map((row) => row.round_id)).toEqual([badBytes]);
    expect((await operatorGet(api, `/v1/players/${player.userId}?operatorId=1`)).json).toMatchObject({
      loyalty_points: 24,
    });
  });
  it("a close of bytes that are not UTF-8 past the ordinary limit is stored whole, in pieces, its start listed", async () => {
    const round = "malformed-mostly-invalid-bytes";
    const head = `{"action":"CLOSE_ROUND","action_id":"${round}","provider_tx_id":"${round}-1-close-round","note":"`;
    // 3,000,000 invalid bytes decode to as many U+FFFD, 9,000,000 bytes of text: kept as the bytes received.
    const raw = Buffer.concat([Buffer.from(head), Buffer.alloc(3_000_000, 0xff)]);
    const answer = await callGateway(gateway, "/deposit", undefined, { raw, timeoutMs: 30_000 });
    const message = `body is not valid JSON; the body is not valid UTF-8 from byte ${head.length} on (stored with U+FFFD in place of each invalid sequence)`;
    expect([answer.status, answer.json]).toEqual([400, { code: 400, message }]);
    const [stored] = await refused();
    expect(stored).toMatchObject({
      round_id: round,
      provider_tx_id: `${round}-1-close-round`,
      reason: "malformed_body",
      message,
      body_bytes: raw.length,
      body_complete: false,
    });
    const body = String(stored?.body);
    expect(body.startsWith(head)).toBe(true);
    expect(body.length).toBe(64 * 1024);
    expect(body.slice(head.length)).toBe("\ufffd".repeat(body.length - head.length));
  });
});
