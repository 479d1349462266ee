import { WalletError } from "@wallet/contracts/errors";
import { stringifyJson } from "@wallet/contracts/json";
import { balanceRoomProblem } from "@wallet/contracts/money";
import { closeRoundEventId, lateEventId } from "@wallet/contracts/side-effects";
import type {
  BetRequest,
  FreeBetWinRequest,
  RollbackRequest,
  WinRequest,
} from "@wallet/contracts/wallet-request";
import { type AnomalyKind, anomalyMark } from "../anomalies.ts";
import { newOperatorTxId, tombstoneConflict } from "../callback-input.ts";
import { replay } from "../idempotency.ts";
import { failure, type Outcome, success, transferOutcome } from "../outcome.ts";
import { everyTopic } from "../schema/outbox.ts";
import { requireLiveSession } from "../steps/live-session.ts";
import type { BalanceRead, BatchRequest, MoneyRequest } from "./requests.ts";
import {
  type BatchPlayer,
  type BatchState,
  type BatchWallet,
  type BetState,
  idKey,
  type JournalRow,
} from "./state.ts";

/**
 * Decides one job of a batch against the batch's state: the ledger's rules, in TypeScript, between
 * the batch's locking read and its writes. A refusal (4xx) is this job's answer alone, stored like
 * any answer; it changes nothing for its neighbours. Anything else thrown fails the whole batch.
 */
export function decide(state: BatchState, job: BatchRequest): Outcome {
  if (job.kind === "BALANCE") return refusalsAnswered(() => readBalance(state, job));
  const { tenantId, request, bodySha256 } = job;
  const earlier = state.records.get(idKey(tenantId, request.provider_tx_id));
  if (earlier) return replay(earlier, bodySha256);
  const outcome = refusalsAnswered(() => decideMoney(state, job));
  state.store({
    tenantId,
    providerTxId: request.provider_tx_id,
    bodySha256,
    action: request.action,
    status: outcome.status,
    response: outcome.body,
  });
  return outcome;
}

function decideMoney(state: BatchState, job: MoneyRequest): Outcome {
  switch (job.kind) {
    case "BET":
      return placeBet(state, job.tenantId, job.request);
    case "CREDIT":
      return creditWin(state, job.tenantId, job.request);
    case "ROLL_BACK":
      return refundBet(state, job.tenantId, job.request);
    case "CLOSE":
      return closeRound(state, job);
  }
}

function refusalsAnswered(decideJob: () => Outcome): Outcome {
  try {
    return decideJob();
  } catch (error) {
    if (error instanceof WalletError && !error.retryable) return failure(error);
    throw error;
  }
}

/** The player and their wallet in the request's currency: 404 for an unknown user, 400 for another currency. */
function playerWallet(
  state: BatchState,
  tenantId: number,
  userId: string,
  currency: string,
): { player: BatchPlayer; wallet: BatchWallet } {
  const player = state.player(tenantId, userId);
  if (!player) throw new WalletError("NOT_FOUND", `user ${userId} not found`);
  const wallet = player.wallets.get(currency);
  if (!wallet) {
    throw new WalletError(
      "BAD_REQUEST",
      `currency ${currency} does not match the player's currency ${player.currency}`,
    );
  }
  return { player, wallet };
}

const transfer = (player: BatchPlayer, wallet: BatchWallet, providerTxId: string, operatorTxId: string) =>
  transferOutcome({
    userId: player.userId,
    operatorTxId,
    providerTxId,
    newBalance: wallet.balance,
    currency: wallet.currency,
  });

/** BET debits real money: a live session of this player, a new id, min/max bet, and the funds (402). */
function placeBet(state: BatchState, tenantId: number, request: BetRequest): Outcome {
  const { player, wallet } = playerWallet(state, tenantId, request.user_id, request.currency);
  requireLiveSession(state.session(tenantId, request.session_token), player);
  const earlier = state.bet(tenantId, request.provider_tx_id);
  if (earlier?.status === "tombstone") {
    // The tombstone is its player's: anyone else's bet under that id is a conflict, not a free pass.
    if (earlier.playerId !== player.id) throw tombstoneConflict(request.provider_tx_id);
    // Its ROLL_BACK came first and was answered 200 with no credit; the late bet moves nothing.
    return transfer(player, wallet, request.provider_tx_id, newOperatorTxId());
  }
  if (earlier)
    throw new WalletError("DUPLICATE_CONFLICT", `bet ${request.provider_tx_id} is already recorded`);
  const amount = request.amount;
  if (amount <= 0n) throw new WalletError("BAD_REQUEST", "amount: a BET must stake more than 0 millis");
  if (player.minbet !== null && amount < player.minbet) {
    throw new WalletError("BAD_REQUEST", `amount ${amount} is below the player's minbet ${player.minbet}`);
  }
  const staked = state.staked(player.id, request.action_id);
  if (staked + amount > player.maxbet) {
    throw new WalletError(
      "BAD_REQUEST",
      `bet of ${amount} would bring the round's stake to ${staked + amount}, above the player's maxbet ${player.maxbet}`,
    );
  }
  if (wallet.balance < amount) {
    // 402 carrying the balance as it stands, so the platform can show the player why.
    throw new WalletError("INSUFFICIENT_FUNDS", "insufficient funds", {
      user_id: player.userId,
      provider_tx_id: request.provider_tx_id,
      balance: wallet.balance,
      currency: wallet.currency,
    });
  }
  state.addBet({
    tenantId,
    providerTxId: request.provider_tx_id,
    playerId: player.id,
    roundId: request.action_id,
    game: request.game,
    currency: wallet.currency,
    kind: "BET",
    amount,
    status: "open",
    wonAmount: 0n,
    winCount: 0,
    freeBetGrantId: null,
    rollbackProviderTxId: null,
  });
  state.setStaked(player.id, request.action_id, staked + amount);
  state.openRound(tenantId, request.action_id, request.game);
  const operatorTxId = newOperatorTxId();
  const anomalies: AnomalyKind[] = [];
  book(
    state,
    { player, wallet, delta: -amount, anomalies, change: { staked: amount, won: 0n } },
    {
      kind: "BET",
      operatorTxId,
      providerTxId: request.provider_tx_id,
      roundId: request.action_id,
      game: request.game,
      betProviderTxId: request.provider_tx_id,
    },
  );
  return withAnomalies(transfer(player, wallet, request.provider_tx_id, operatorTxId), anomalies);
}

/**
 * Journals a money line with its anomalies. A line into a round already closed is booked as the
 * platform sent it (refused, a win would be lost for good, and a bet the close lists would stand
 * unmatched), marked `after_close`, and owes the round's late event in the same transaction: the
 * round's effects again for this line's `change` alone, and the round re-reconciled and re-reported.
 */
function book(
  state: BatchState,
  money: {
    player: BatchPlayer;
    wallet: BatchWallet;
    delta: bigint;
    anomalies: AnomalyKind[];
    change: { staked: bigint; won: bigint };
  },
  line: Omit<JournalRow, "tenantId" | "playerId" | "walletId" | "currency" | "amount" | "balanceAfter">,
): void {
  const { player, wallet, anomalies, change } = money;
  const { tenantId } = player;
  if (state.isClosed(tenantId, line.roundId)) anomalies.push("after_close");
  state.move(player, wallet, money.delta, { ...line, anomaly: anomalyMark(anomalies) });
  if (!anomalies.includes("after_close")) return;
  const eventId = lateEventId(tenantId, line.roundId, line.operatorTxId);
  const payload = stringifyJson({
    eventId,
    tenantId,
    roundId: line.roundId,
    game: line.game,
    providerTxId: line.providerTxId,
    late: {
      operatorTxId: line.operatorTxId,
      playerId: player.id,
      currency: wallet.currency,
      staked: change.staked.toString(),
      won: change.won.toString(),
    },
  });
  state.owe({ tenantId, topic: everyTopic, eventId, payload });
}

/**
 * WIN and FREE_BET_WIN credit the player. No live session is needed: a win settles a bet the
 * player already placed, even if the session expired meanwhile.
 */
function creditWin(state: BatchState, tenantId: number, request: WinRequest | FreeBetWinRequest): Outcome {
  const { player, wallet } = playerWallet(state, tenantId, request.user_id, request.currency);
  const bet = request.withdraw_provider_tx_id
    ? winnableBet(state, tenantId, player, request)
    : roundFreeBet(state, player, request);
  const anomalies: AnomalyKind[] = [];
  if (player.maxwin !== null && request.amount > player.maxwin) anomalies.push("win_above_maxwin");
  if (bet.winCount > 0) anomalies.push("second_win");
  requireRoom(wallet, request.amount);
  const operatorTxId = newOperatorTxId();
  if (request.amount > 0n) {
    book(
      state,
      { player, wallet, delta: request.amount, anomalies, change: { staked: 0n, won: request.amount } },
      {
        kind: request.action,
        operatorTxId,
        providerTxId: request.provider_tx_id,
        roundId: request.action_id,
        game: request.game,
        betId: bet.id,
        betProviderTxId: bet.providerTxId,
      },
    );
  }
  bet.status = "won";
  bet.wonAmount += request.amount;
  bet.winCount += 1;
  state.changed(bet);
  return withAnomalies(transfer(player, wallet, request.provider_tx_id, operatorTxId), anomalies);
}

/** A credit that would take the balance past what JSON carries exactly is refused, stored like any refusal. */
function requireRoom(wallet: BatchWallet, amount: bigint): void {
  const problem = balanceRoomProblem(wallet.balance, amount);
  if (problem) throw new WalletError("BAD_REQUEST", `amount: ${problem}`);
}

function withAnomalies(outcome: Outcome, anomalies: AnomalyKind[]): Outcome {
  return anomalies.length > 0 ? { ...outcome, anomalies } : outcome;
}

/**
 * The FREE_BET a FREE_BET_WIN without `withdraw_provider_tx_id` settles: the player's in that round,
 * not refunded (an unsettled one first). Without one the win is refused like a WIN without its bet:
 * credited as cash, it would be money from nothing (docs/contract-decisions.md).
 */
function roundFreeBet(
  state: BatchState,
  player: BatchPlayer,
  request: WinRequest | FreeBetWinRequest,
): BetState {
  const candidates = [...state.bets.values()].filter(
    (bet) =>
      bet.playerId === player.id &&
      bet.roundId === request.action_id &&
      bet.kind === "FREE_BET" &&
      (bet.status === "open" || bet.status === "won"),
  );
  const bet = candidates.find((candidate) => candidate.status === "open") ?? candidates[0];
  if (!bet) {
    throw new WalletError(
      "BAD_REQUEST",
      `FREE_BET_WIN names no withdraw_provider_tx_id and user ${request.user_id} has no FREE_BET in round ${request.action_id}`,
    );
  }
  return bet;
}

/** The bet a win settles: this player's, this round's, of the matching kind, and not refunded. */
function winnableBet(
  state: BatchState,
  tenantId: number,
  player: BatchPlayer,
  request: WinRequest | FreeBetWinRequest,
): BetState {
  const betId = request.withdraw_provider_tx_id ?? "";
  const bet = state.bet(tenantId, betId);
  if (!bet || bet.status === "tombstone") {
    const why = bet ? "was rolled back before it arrived" : "is unknown";
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betId} ${why}`);
  }
  if (bet.playerId !== player.id) {
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betId} belongs to another player`);
  }
  if (bet.roundId !== request.action_id) {
    throw new WalletError("BAD_REQUEST", `action_id: bet ${betId} was placed in round ${bet.roundId}`);
  }
  const expectedKind = request.action === "WIN" ? "BET" : "FREE_BET";
  if (bet.kind !== expectedKind) {
    throw new WalletError(
      "BAD_REQUEST",
      `${request.action} settles a ${expectedKind}, but bet ${betId} is a ${bet.kind}`,
    );
  }
  if (bet.status === "rolled_back") {
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betId} was rolled back`);
  }
  return bet;
}

/**
 * ROLL_BACK refunds the original bet's amount, once per bet whatever the rollback's own id.
 * A rollback for a bet we never saw leaves a tombstone, so the bet arriving late moves nothing.
 */
function refundBet(state: BatchState, tenantId: number, request: RollbackRequest): Outcome {
  const { player, wallet } = playerWallet(state, tenantId, request.user_id, request.currency);
  const betTxId = request.withdraw_provider_tx_id;
  const bet = state.bet(tenantId, betTxId);
  if (!bet) {
    state.addBet({
      tenantId,
      providerTxId: betTxId,
      playerId: player.id,
      roundId: request.action_id,
      game: request.game,
      currency: wallet.currency,
      kind: "BET",
      amount: request.amount,
      status: "tombstone",
      wonAmount: 0n,
      winCount: 0,
      freeBetGrantId: null,
      rollbackProviderTxId: request.provider_tx_id,
    });
    return transfer(player, wallet, request.provider_tx_id, newOperatorTxId());
  }
  if (bet.playerId !== player.id) {
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betTxId} belongs to another player`);
  }
  if (bet.status === "rolled_back" || bet.status === "tombstone") {
    // A bet is refunded once: later rollbacks under new ids get the first rollback's answer.
    const first = bet.rollbackProviderTxId
      ? state.records.get(idKey(tenantId, bet.rollbackProviderTxId))
      : undefined;
    if (!first)
      throw new Error(`rolled-back bet has no stored rollback answer (${bet.rollbackProviderTxId})`);
    return { status: first.status, body: first.response, replayed: true };
  }
  if (bet.status === "won") {
    throw new WalletError(
      "BAD_REQUEST",
      `withdraw_provider_tx_id: bet ${betTxId} already has a WIN and cannot be rolled back`,
    );
  }
  // What the bet took goes back, whatever amount or round the rollback names: refused, the refund
  // would be lost (the platform never resends a 4xx); the difference is marked instead.
  const anomalies: AnomalyKind[] = [];
  if (request.amount !== bet.amount) anomalies.push("rollback_amount_differs");
  if (request.action_id !== bet.roundId) anomalies.push("rollback_round_differs");
  requireRoom(wallet, bet.amount);
  const operatorTxId = newOperatorTxId();
  if (bet.amount > 0n) {
    book(
      state,
      { player, wallet, delta: bet.amount, anomalies, change: { staked: -bet.amount, won: 0n } },
      {
        kind: "ROLL_BACK",
        operatorTxId,
        providerTxId: request.provider_tx_id,
        roundId: bet.roundId,
        game: bet.game,
        betId: bet.id,
        betProviderTxId: bet.providerTxId,
      },
    );
  }
  if (bet.freeBetGrantId !== null) state.restoreGrant(bet.freeBetGrantId);
  if (bet.kind === "BET")
    state.setStaked(bet.playerId, bet.roundId, state.staked(bet.playerId, bet.roundId) - bet.amount);
  bet.status = "rolled_back";
  bet.rollbackProviderTxId = request.provider_tx_id;
  state.changed(bet);
  return withAnomalies(transfer(player, wallet, request.provider_tx_id, operatorTxId), anomalies);
}

/**
 * CLOSE_ROUND is a notification: it records the close with its per-bet arrays and owes the four
 * side effects through the outbox, in the batch's transaction. It never touches a balance and never
 * answers 402. A second close of the same round (under any id) gets the first close's answer.
 */
function closeRound(state: BatchState, job: Extract<MoneyRequest, { kind: "CLOSE" }>): Outcome {
  const { tenantId, request } = job;
  const roundId = request.action_id;
  const earlierId = state.closes.get(idKey(tenantId, roundId));
  if (earlierId !== undefined) {
    const first = state.records.get(idKey(tenantId, earlierId));
    if (!first) throw new Error(`closed round ${roundId} has no stored answer`);
    return { status: first.status, body: first.response, replayed: true };
  }
  const operatorTxId = newOperatorTxId();
  const { bets: stakes, cashOutCoefficients } = request.attributes;
  const eventId = closeRoundEventId(tenantId, roundId);
  const payload = stringifyJson({
    eventId,
    tenantId,
    roundId,
    game: request.game,
    providerTxId: request.provider_tx_id,
    traceparent: job.traceparent,
  });
  state.close(
    {
      tenantId,
      roundId,
      providerTxId: request.provider_tx_id,
      operatorTxId,
      game: request.game,
      currency: request.currency ?? null,
      betCount: stakes.length,
      stakes: stringifyJson(stakes),
      cashOutCoefficients: JSON.stringify(cashOutCoefficients),
    },
    { tenantId, topic: everyTopic, eventId, payload },
  );
  return success({ operator_tx_id: operatorTxId, provider_tx_id: request.provider_tx_id });
}

/** `/balance` by user id: the player's current currency and amount in millis (a session, if sent, must be theirs). */
function readBalance(state: BatchState, job: BalanceRead): Outcome {
  const { tenantId, request } = job;
  const player = state.player(tenantId, request.user_id);
  if (!player) throw new WalletError("NOT_FOUND", `user ${request.user_id} not found`);
  if (request.session_token !== undefined) {
    const session = state.session(tenantId, request.session_token);
    if (!session || session.playerId !== player.id) throw new WalletError("NOT_FOUND", "session not found");
  }
  const currency = request.currency ?? player.currency;
  const wallet = player.wallets.get(currency);
  if (!wallet) {
    throw new WalletError(
      "BAD_REQUEST",
      `currency ${currency} does not match the player's currency ${player.currency}`,
    );
  }
  return success({ user_id: player.userId, currency, amount: wallet.balance });
}
