import { randomUUID } from "node:crypto";
import type { SimOperator } from "../env.ts";
import type { Sessions, SimSession } from "../sessions.ts";
import { type CallbackAnswer, type RetryPolicy, sendCallback } from "../wallet-client.ts";
import type { SimStats } from "./stats.ts";

export interface RoundDeps {
  operators: Map<number, SimOperator>;
  sessions: Sessions;
  policy: RetryPolicy;
  stats: SimStats;
  random: () => number;
  /** Share of bets placed as FREE_BET (falls back to BET when the operator has no free bet for the player). */
  freeBetRate: number;
  /** Share of rounds voided: every bet is rolled back. */
  voidRate: number;
}

interface Turn {
  operatorId: number;
  /** Stake in the CLOSE_ROUND arrays: a free bet's nominal stake, since the player risked none. */
  stake: number;
  coefficient: number;
  /** Every per-bet callback after the BET was acknowledged with 200. */
  acknowledged: boolean;
}

const PROVIDER = "platform-sim";
const FREE_BET_NOMINAL = 1_000;

/** Crash multiplier in hundredths with a 1% house edge: 1.00 or more, heavy-tailed. */
function crashPoint(random: () => number): number {
  return Math.max(100, Math.floor(99 / (1 - random())));
}

/**
 * One round of the crash game with every launched player. Per player: /auth, a bet, then a WIN
 * if they cashed out before the crash, a ROLL_BACK if the round is voided. CLOSE_ROUND goes to each
 * operator that had bets, once, and only after all its per-bet callbacks were acknowledged with 200.
 */
export async function playCrashRound(deps: RoundDeps): Promise<{ roundId: string; closed: number }> {
  const roundId = `crash-${randomUUID()}`;
  const crashAt = crashPoint(deps.random);
  const voided = deps.random() < deps.voidRate;
  const turns = await Promise.all(
    deps.sessions.crashPlayers().map((session) => playTurn(deps, session, roundId, crashAt, voided)),
  );
  deps.stats.rounds += 1;
  if (voided) deps.stats.roundsVoided += 1;

  let closed = 0;
  for (const [operatorId, bets] of groupByOperator(turns)) {
    const operator = deps.operators.get(operatorId);
    if (!operator) continue;
    if (bets.some((turn) => !turn.acknowledged)) {
      deps.stats.roundsUnclosable += 1;
      continue;
    }
    const answer = await sendCallback(
      operator,
      "deposit",
      {
        amount: 0,
        provider: PROVIDER,
        provider_tx_id: `${roundId}-${operatorId}-close-round`,
        game: "crashGame",
        action: "CLOSE_ROUND",
        action_id: roundId,
        attributes: [
          {
            name: "crashGameCashOutCoefficients",
            value: JSON.stringify(bets.map((turn) => turn.coefficient)),
          },
          { name: "crashGameBets", value: JSON.stringify(bets.map((turn) => turn.stake)) },
        ],
      },
      deps.policy,
      deps.stats,
      "CLOSE_ROUND",
    );
    if (answer.status === 200) closed += 1;
  }
  if (closed > 0) deps.stats.roundsClosed += 1;
  return { roundId, closed };
}

async function playTurn(
  deps: RoundDeps,
  session: SimSession,
  roundId: string,
  crashAt: number,
  voided: boolean,
): Promise<Turn | undefined> {
  const operator = deps.operators.get(session.operatorId);
  if (!operator) return undefined;
  const auth = await sendCallback(
    operator,
    "auth",
    {
      user_token: session.userToken,
      session_token: session.sessionToken,
      platform: session.platform,
      currency: session.currency,
    },
    deps.policy,
    deps.stats,
    "/auth",
  );
  const player = auth.reply?.ok ? auth.reply.data : undefined;
  if (!player) return undefined;
  session.userId = String(player.user_id);
  session.lastBalance = Number(player.balance);

  const base = {
    currency: session.currency,
    provider: PROVIDER,
    game: "crashGame",
    action_id: roundId,
    session_token: session.sessionToken,
    platform: session.platform,
    user_id: session.userId,
  };
  const createDate = { name: "createDate", value: new Date().toISOString() };
  const cap = Math.min(Number(player.maxbet), Number(player.balance), 5_000);
  const cashStake = Math.floor((cap * (0.2 + 0.8 * deps.random())) / 100) * 100;

  let bet = {
    ...base,
    amount: 0,
    provider_tx_id: randomUUID(),
    action: "FREE_BET",
    attributes: [createDate, { name: "bonus", value: "1" }],
  };
  let placed =
    deps.random() < deps.freeBetRate
      ? await sendCallback(operator, "withdraw", bet, deps.policy, deps.stats, "FREE_BET")
      : undefined;
  if (!placed || placed.status !== 200) {
    if (cashStake < 100) return undefined;
    bet = {
      ...base,
      amount: cashStake,
      provider_tx_id: randomUUID(),
      action: "BET",
      attributes: [createDate],
    };
    placed = await sendCallback(operator, "withdraw", bet, deps.policy, deps.stats, "BET");
    if (placed.status !== 200) return undefined;
  }
  remember(session, placed);
  const free = bet.action === "FREE_BET";
  const stake = free ? FREE_BET_NOMINAL : bet.amount;
  const settle = { ...base, provider_tx_id: randomUUID(), withdraw_provider_tx_id: bet.provider_tx_id };

  if (voided) {
    const refund = await sendCallback(
      operator,
      "deposit",
      { ...settle, action: "ROLL_BACK", amount: bet.amount, attributes: [] },
      deps.policy,
      deps.stats,
      "ROLL_BACK",
    );
    remember(session, refund);
    return { operatorId: operator.operatorId, stake, coefficient: 0, acknowledged: refund.status === 200 };
  }
  const target = 110 + Math.floor(deps.random() * 390);
  if (target >= crashAt)
    return { operatorId: operator.operatorId, stake, coefficient: 0, acknowledged: true };
  const win = await sendCallback(
    operator,
    "deposit",
    {
      ...settle,
      action: free ? "FREE_BET_WIN" : "WIN",
      amount: Math.floor((stake * target) / 100),
      attributes: [{ name: "coefficient", value: (target / 100).toFixed(2) }, createDate],
    },
    deps.policy,
    deps.stats,
    free ? "FREE_BET_WIN" : "WIN",
  );
  remember(session, win);
  return {
    operatorId: operator.operatorId,
    stake,
    coefficient: target / 100,
    acknowledged: win.status === 200,
  };
}

/** The balance a 200 transfer reported is the session's latest. */
function remember(session: SimSession, answer: CallbackAnswer<"withdraw" | "deposit">) {
  const data = answer.reply?.ok ? answer.reply.data : undefined;
  if (data && "new_balance" in data) session.lastBalance = Number(data.new_balance);
}

function groupByOperator(turns: Array<Turn | undefined>): Map<number, Turn[]> {
  const groups = new Map<number, Turn[]>();
  for (const turn of turns) {
    if (!turn) continue;
    groups.set(turn.operatorId, [...(groups.get(turn.operatorId) ?? []), turn]);
  }
  return groups;
}
