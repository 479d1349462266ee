import { closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { describe, expect, it } from "vitest";
import {
  authedPlayer,
  type CallOptions,
  callGateway,
  testTenants,
  useRunningSystem,
} from "../harness/system.ts";

/**
 * The four callbacks' answers, byte for byte: a fixed script of accepted, replayed and refused
 * callbacks whose every status and body is compared with `conformance.golden.txt`. Refactors of the
 * gateway, the worker or the contracts must leave this file unchanged; a deliberate change of an
 * answer updates it (`vitest -u`) and shows in review as a diff of exactly what the platform sees.
 * Only what differs between runs is masked: the player's ids and tokens, and each operator_tx_id
 * by order of first appearance (so a replay that answered a new id would still show).
 */
const running = useRunningSystem();

describe("conformance of the four callbacks", () => {
  it("answers a fixed script exactly as recorded", async () => {
    const player = await authedPlayer(running.system, running.gateway, { balance: 5_000n, maxbet: 8_000n });
    const transcript: string[] = [`/auth (the harness's) -> ${player.auth.status} ${player.auth.text}`];
    const send = async (name: string, path: string, body: unknown, options: CallOptions = {}) => {
      const answer = await callGateway(running.gateway, path, body, options);
      transcript.push(`${name}: ${path} -> ${answer.status} ${answer.text}`);
    };
    const base = {
      currency: "EUR",
      provider: "platform-sim",
      game: "crashGame",
      session_token: player.sessionToken,
      platform: "desktop",
      user_id: player.userId,
      attributes: [],
    };
    const bet = (id: string, round: string, amount: unknown, over: Record<string, unknown> = {}) => ({
      ...base,
      amount,
      provider_tx_id: id,
      action: "BET",
      action_id: round,
      ...over,
    });
    const settle = (id: string, betId: string, round: string, action: string, amount: number) => ({
      ...base,
      amount,
      provider_tx_id: id,
      withdraw_provider_tx_id: betId,
      action,
      action_id: round,
    });

    await send("auth, unknown user token", "/auth", {
      user_token: "no-such-token",
      session_token: "conf-session-x",
      platform: "desktop",
      currency: "EUR",
    });
    await send("auth, no user token", "/auth", { session_token: "conf-session-y", platform: "desktop" });
    await send("balance", "/balance", { session_token: player.sessionToken, currency: "EUR" });
    await send("balance, unknown session", "/balance", { session_token: "no-such-session", currency: "EUR" });
    await send("bet", "/withdraw", bet("conf-bet-1", "conf-r1", 1_000));
    await send("bet, replayed", "/withdraw", bet("conf-bet-1", "conf-r1", 1_000));
    await send("bet, same id other amount", "/withdraw", bet("conf-bet-1", "conf-r1", 1_500));
    await send("bet over maxbet", "/withdraw", bet("conf-bet-2", "conf-r1", 7_500));
    await send("bet, third", "/withdraw", bet("conf-bet-3", "conf-r1", 500));
    await send("bet, second in the round", "/withdraw", bet("conf-bet-4", "conf-r1", 3_000));
    await send("bet over the remaining balance", "/withdraw", bet("conf-bet-5", "conf-r1", 2_000));
    await send("bet, fractional millis", "/withdraw", bet("conf-bet-6", "conf-r1", 1.5));
    await send("bet, negative", "/withdraw", bet("conf-bet-7", "conf-r1", -10));
    await send("bet, amount as text", "/withdraw", bet("conf-bet-8", "conf-r1", "100"));
    await send("bet, other currency", "/withdraw", bet("conf-bet-9", "conf-r1", 100, { currency: "USD" }));
    await send(
      "bet, unknown session",
      "/withdraw",
      bet("conf-bet-10", "conf-r1", 100, { session_token: "nope" }),
    );
    await send(
      "free bet without a grant",
      "/withdraw",
      bet("conf-bet-11", "conf-r1", 100, { action: "FREE_BET" }),
    );
    await send("win on /withdraw", "/withdraw", settle("conf-win-0", "conf-bet-1", "conf-r1", "WIN", 10));
    await send("win", "/deposit", settle("conf-win-1", "conf-bet-1", "conf-r1", "WIN", 2_500));
    await send("win, replayed", "/deposit", settle("conf-win-1", "conf-bet-1", "conf-r1", "WIN", 2_500));
    await send(
      "win of an unknown bet",
      "/deposit",
      settle("conf-win-2", "no-such-bet", "conf-r1", "WIN", 100),
    );
    await send(
      "rollback of the second bet",
      "/deposit",
      settle("conf-rb-1", "conf-bet-4", "conf-r1", "ROLL_BACK", 3_000),
    );
    await send(
      "rollback, replayed",
      "/deposit",
      settle("conf-rb-1", "conf-bet-4", "conf-r1", "ROLL_BACK", 3_000),
    );
    await send(
      "rollback of an unknown bet",
      "/deposit",
      settle("conf-rb-2", "no-such-bet", "conf-r1", "ROLL_BACK", 100),
    );
    await send("close", "/deposit", closeRoundBody("conf-r1", [1_000], [2.5]));
    await send("close, replayed", "/deposit", closeRoundBody("conf-r1", [1_000], [2.5]));
    await send("close, attributes missing", "/deposit", {
      ...closeRoundBody("conf-r2", [], []),
      attributes: [],
    });
    await send("bet after the close", "/withdraw", bet("conf-bet-12", "conf-r1", 100));
    await send("balance at the end", "/balance", { session_token: player.sessionToken, currency: "EUR" });
    const tenant = testTenants[0];
    await send(
      "bad signature",
      "/balance",
      { session_token: player.sessionToken },
      { signature: "00".repeat(32) },
    );
    await send("no signature", "/balance", { session_token: player.sessionToken }, { signature: null });
    await send(
      "unknown public key",
      "/balance",
      { session_token: player.sessionToken },
      { publicKey: "nobody", tenant },
    );
    await send("not JSON", "/withdraw", undefined, { raw: "{not json" });
    await send("unknown path", "/refund", { session_token: player.sessionToken });

    let masked = transcript.join("\n");
    for (const [value, mask] of [
      [player.userId, "<user_id>"],
      [player.sessionToken, "<session_token>"],
      [player.userToken, "<user_token>"],
    ] as const)
      masked = masked.split(value).join(mask);
    const txIds = new Map<string, string>();
    masked = masked.replace(/"operator_tx_id":"([^"]*)"/g, (_match, id: string) => {
      if (!txIds.has(id)) txIds.set(id, `<operator_tx_id ${txIds.size + 1}>`);
      return `"operator_tx_id":"${txIds.get(id)}"`;
    });
    await expect(`${masked}\n`).toMatchFileSnapshot("./conformance.golden.txt");
  });
});
