import { randomUUID } from "node:crypto";
import { sha256Hex } from "@wallet/contracts/hash";
import { defaultLedgerConfig, type LedgerContext } from "../context.ts";
import { createDatabase } from "../db.ts";
import type { Outcome } from "../outcome.ts";
import { createPlayer, mintUserToken, upsertTenant } from "../verbs/admin.ts";
import { authenticate } from "../verbs/authenticate.ts";
import { balance } from "../verbs/balance.ts";
import { deposit } from "../verbs/deposit.ts";
import { withdraw } from "../verbs/withdraw.ts";
import { cliEnv } from "./env.ts";

// A first look at the ledger: a demo player plays crash rounds straight through the wallet verbs
// (the signed HTTP path in front of them is the gateway's job).
const ROUNDS = 20;
const { db, close } = createDatabase({ url: cliEnv.DATABASE_URL, poolSize: 2 });
const ctx: LedgerContext = { db, config: defaultLedgerConfig };
const tenantId = 1;
const statuses = new Map<string, number>();
const latencies: number[] = [];

async function timed(label: string, run: () => Promise<Outcome>) {
  const started = performance.now();
  const outcome = await run();
  latencies.push(performance.now() - started);
  const key = `${label} ${outcome.status}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
  return JSON.parse(outcome.body) as { code: number; data?: Record<string, unknown> };
}

function signedInput(body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  return { tenantId, body: JSON.parse(raw), bodySha256: sha256Hex(raw) };
}

try {
  await upsertTenant({ ctx, input: { id: tenantId, publicKey: "dev-public-key", name: "demo operator" } });
  const { userId } = await createPlayer({
    ctx,
    input: { tenantId, username: "demo-player", currency: "EUR", balance: 100_000n, maxbet: 20_000n },
  });
  const { userToken } = await mintUserToken({ ctx, input: { tenantId, userId, ttlSeconds: 600 } });
  const sessionToken = `demo-${randomUUID()}`;
  await timed("/auth", () =>
    authenticate({
      ctx,
      input: { tenantId, body: { user_token: userToken, session_token: sessionToken, currency: "EUR" } },
    }),
  );
  console.log(`demo player ${userId} starts with 100.000 EUR (100000 millis)`);

  for (let round = 1; round <= ROUNDS; round++) {
    const roundId = `demo-${randomUUID()}`;
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
    const placed = await timed("BET", () => withdraw({ ctx, input: signedInput(bet) }));
    if (placed.code !== 200) continue;
    const voided = Math.random() < 0.1;
    const coefficient = voided || Math.random() < 0.5 ? 0 : Math.round((1.1 + Math.random() * 3) * 100) / 100;
    if (voided) {
      await timed("ROLL_BACK", () =>
        deposit({
          ctx,
          input: signedInput({
            ...bet,
            action: "ROLL_BACK",
            provider_tx_id: randomUUID(),
            withdraw_provider_tx_id: bet.provider_tx_id,
          }),
        }),
      );
    } else if (coefficient > 0) {
      // Payout = stake x coefficient, computed in integer millis (coefficient in hundredths).
      const payout = Number((BigInt(stake) * BigInt(Math.round(coefficient * 100))) / 100n);
      await timed("WIN", () =>
        deposit({
          ctx,
          input: signedInput({
            ...bet,
            action: "WIN",
            amount: payout,
            provider_tx_id: randomUUID(),
            withdraw_provider_tx_id: bet.provider_tx_id,
          }),
        }),
      );
    }
    await timed("CLOSE_ROUND", () =>
      deposit({
        ctx,
        input: signedInput({
          amount: 0,
          provider: "demo",
          provider_tx_id: `${roundId}-${tenantId}-close-round`,
          game: "crashGame",
          action: "CLOSE_ROUND",
          action_id: roundId,
          attributes: [
            { name: "crashGameCashOutCoefficients", value: JSON.stringify([voided ? 0 : coefficient]) },
            { name: "crashGameBets", value: JSON.stringify([stake]) },
          ],
        }),
      }),
    );
  }

  const final = await timed("/balance", () =>
    balance({ ctx, input: { tenantId, body: { user_id: userId } } }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  console.log(`${ROUNDS} rounds played; verb calls by action and status:`);
  for (const [key, count] of [...statuses].sort()) console.log(`  ${key.padEnd(16)} ${count}`);
  console.log(`verb latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  console.log(`final balance: ${final.data?.amount} millis EUR`);
} finally {
  await close();
}
