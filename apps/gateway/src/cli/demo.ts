import { randomUUID } from "node:crypto";
import { sign } from "@wallet/contracts/hmac";
import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { createPlayer, mintUserToken } from "@wallet/ledger/verbs/admin";
import { verifyLedger } from "@wallet/ledger/verify";
import { sendEnv } from "./env.ts";

// A first look at the running system: a demo player plays crash rounds through the real signed
// callback path (gateway → partition queue → worker → ledger), as the platform would.
const ROUNDS = 20;
const statuses = new Map<string, number>();
const latencies: number[] = [];

async function post(label: string, path: string, body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const started = performance.now();
  const response = await fetch(new URL(path, sendEnv.WALLET_URL), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-public-key": sendEnv.PUBLIC_KEY,
      "x-signature": sign(raw, sendEnv.SECRET_KEY),
    },
    body: raw,
  });
  latencies.push(performance.now() - started);
  const key = `${label} ${response.status}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
  return (await response.json()) as { code: number; data?: Record<string, unknown> };
}

const { db, close } = createDatabase({ url: sendEnv.DATABASE_URL, poolSize: 2 });
try {
  // Seeding goes straight to the ledger until the operator API exists.
  const ctx = { db, config: defaultLedgerConfig };
  const tenantId = sendEnv.OPERATOR_ID;
  const { userId } = await createPlayer({
    ctx,
    input: { tenantId, username: "demo-player", currency: "EUR", balance: 100_000n, maxbet: 20_000n },
  });
  const { userToken } = await mintUserToken({ ctx, input: { tenantId, userId, ttlSeconds: 600 } });
  const sessionToken = `demo-${randomUUID()}`;
  await post("/auth", "/auth", {
    user_token: userToken,
    session_token: sessionToken,
    platform: "desktop",
    currency: "EUR",
  });
  console.log(`demo player ${userId} starts with 100000 millis EUR`);

  let roundId = "";
  for (let round = 1; round <= ROUNDS; round++) {
    roundId = `demo-${randomUUID()}`;
    const stake = 1_000 * (1 + Math.floor(Math.random() * 5));
    const bet = {
      currency: "EUR",
      amount: stake,
      provider: "demo",
      provider_tx_id: randomUUID(),
      game: "crashGame",
      action: "BET",
      action_id: roundId,
      session_token: sessionToken,
      platform: "desktop",
      user_id: userId,
      attributes: [],
    };
    const placed = await post("BET", "/withdraw", bet);
    if (placed.code !== 200) continue;
    const voided = Math.random() < 0.1;
    // Coefficient in hundredths, so the payout stays integer millis.
    const hundredths = voided || Math.random() < 0.5 ? 0 : 110 + Math.floor(Math.random() * 300);
    const settle = { ...bet, provider_tx_id: randomUUID(), withdraw_provider_tx_id: bet.provider_tx_id };
    if (voided) await post("ROLL_BACK", "/deposit", { ...settle, action: "ROLL_BACK" });
    else if (hundredths > 0) {
      await post("WIN", "/deposit", { ...settle, action: "WIN", amount: (stake * hundredths) / 100 });
    }
    await post("CLOSE_ROUND", "/deposit", {
      amount: 0,
      provider: "demo",
      provider_tx_id: `${roundId}-${tenantId}-close-round`,
      game: "crashGame",
      action: "CLOSE_ROUND",
      action_id: roundId,
      attributes: [
        { name: "crashGameCashOutCoefficients", value: JSON.stringify([hundredths / 100]) },
        { name: "crashGameBets", value: JSON.stringify([stake]) },
      ],
    });
  }

  const final = await post("/balance", "/balance", { user_id: userId });
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  console.log(`${ROUNDS} rounds played through the gateway; callbacks by action and status:`);
  for (const [key, count] of [...statuses].sort()) console.log(`  ${key.padEnd(16)} ${count}`);
  console.log(`callback latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  console.log(`final balance: ${final.data?.amount} millis EUR`);
  await showSideEffects(userId, roundId);
  const { wallets, problems } = await verifyLedger(db);
  console.log(
    problems.length === 0
      ? `ledger ok: ${wallets} wallets match their journals`
      : `ledger BROKEN: ${problems.length} wallets`,
  );
  if (problems.length > 0) process.exitCode = 1;
} finally {
  await close();
}

/** The closed rounds' side effects, read back through the operator API once they are applied. */
async function showSideEffects(userId: string, lastRound: string) {
  const get = async (path: string) => {
    const response = await fetch(new URL(path, sendEnv.OPERATOR_API_URL), {
      headers: { authorization: `Bearer ${sendEnv.OPERATOR_API_TOKEN}` },
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const query = `?operatorId=${sendEnv.OPERATOR_ID}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    const round = await get(`/v1/rounds/${lastRound}${query}`);
    const effects = Object.values((round.side_effects as Record<string, string> | null) ?? {});
    if (effects.length === 4 && effects.every((state) => state === "applied")) {
      const player = await get(`/v1/players/${userId}${query}`);
      const today = (player.rg as Array<Record<string, unknown>>)[0];
      console.log(
        `side effects applied: ${player.loyalty_points} loyalty points; rg today: staked ${today?.staked}, won ${today?.won}, net loss ${today?.net_loss}, ${today?.rounds} rounds`,
      );
      console.log(
        `last round reconciliation: ${(round.reconciliation as { status: string } | null)?.status}`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log("side effects not applied yet (is the worker running?)");
}
