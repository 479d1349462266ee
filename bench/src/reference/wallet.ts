import { randomUUID } from "node:crypto";
import type { Pool, PoolConnection, RowDataPacket } from "mysql2/promise";

/** What the reference answers: the HTTP status (= envelope code) and the body bytes. */
export interface Answer {
  status: number;
  body: string;
}

export interface Transfer {
  action: "BET" | "WIN" | "ROLL_BACK" | "CLOSE_ROUND";
  userId: string;
  currency: string;
  amount: bigint;
  providerTxId: string;
  betTxId?: string;
  bodySha256: string;
}

const envelope = (code: number, message: string, data?: Record<string, unknown>) =>
  JSON.stringify({ code, message, data }, (_key, value) =>
    typeof value === "bigint" ? Number(value) : value,
  );

const ER_DUP_ENTRY = 1062;
const ER_LOCK_DEADLOCK = 1213;

/**
 * The plain wallet: one MySQL transaction per callback. Lock the wallet row, look up the
 * `provider_tx_id`, move the balance, insert the transaction with the response it got, commit.
 * The same rules as the product where the load can tell: a replay gets the stored bytes, another
 * body under the same id a 409 carrying them, a BET the balance cannot cover a stored 402, a
 * ROLL_BACK refunds its bet once.
 */
export async function transfer(pool: Pool, request: Transfer): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const connection = await pool.getConnection();
    try {
      await connection.query("START TRANSACTION");
      const answer = await transferIn(connection, request);
      await connection.query("COMMIT");
      return answer;
    } catch (error) {
      await connection.query("ROLLBACK").catch(() => {});
      const errno = (error as { errno?: number }).errno;
      // A twin committed first (duplicate key) or a deadlock: the next attempt replays or succeeds.
      if (attempt < 3 && (errno === ER_DUP_ENTRY || errno === ER_LOCK_DEADLOCK)) continue;
      throw error;
    } finally {
      connection.release();
    }
  }
}

async function transferIn(connection: PoolConnection, request: Transfer): Promise<Answer> {
  const [wallets] = await connection.query<RowDataPacket[]>(
    "SELECT balance, currency FROM wallets WHERE user_id = ? FOR UPDATE",
    [request.userId],
  );
  const wallet = wallets[0];
  if (request.action !== "CLOSE_ROUND" && !wallet)
    return { status: 404, body: envelope(404, "user not found") };
  const [earlier] = await connection.query<RowDataPacket[]>(
    "SELECT body_sha256, status, response FROM transactions WHERE provider_tx_id = ?",
    [request.providerTxId],
  );
  const stored = earlier[0];
  if (stored) {
    if (stored.body_sha256 === request.bodySha256) return { status: stored.status, body: stored.response };
    const body = `{"code":409,"message":"provider_tx_id was already used with a different request body","data":${stored.response}}`;
    return { status: 409, body };
  }
  if (request.action === "CLOSE_ROUND") {
    return record(connection, request, 0n, {
      status: 200,
      body: envelope(200, "OK", { provider_tx_id: request.providerTxId }),
    });
  }
  const balance = BigInt(wallet?.balance);
  const currency = String(wallet?.currency);
  let delta = request.amount;
  if (request.action === "BET") {
    delta = -request.amount;
    if (balance < request.amount) {
      const refusal = envelope(402, "insufficient funds", {
        user_id: request.userId,
        provider_tx_id: request.providerTxId,
        balance,
        currency,
      });
      return record(connection, request, 0n, { status: 402, body: refusal });
    }
  }
  if (request.action === "ROLL_BACK") {
    const [bets] = await connection.query<RowDataPacket[]>(
      "SELECT amount, refunded_by FROM transactions WHERE provider_tx_id = ? AND user_id = ? AND action = 'BET' FOR UPDATE",
      [request.betTxId, request.userId],
    );
    const bet = bets[0];
    if (bet?.refunded_by) {
      const [first] = await connection.query<RowDataPacket[]>(
        "SELECT status, response FROM transactions WHERE provider_tx_id = ?",
        [bet.refunded_by],
      );
      return { status: first[0]?.status, body: first[0]?.response };
    }
    delta = bet ? -BigInt(bet.amount) : 0n;
    if (bet) {
      await connection.query("UPDATE transactions SET refunded_by = ? WHERE provider_tx_id = ?", [
        request.providerTxId,
        request.betTxId,
      ]);
    }
  }
  if (delta !== 0n) {
    await connection.query("UPDATE wallets SET balance = balance + ? WHERE user_id = ?", [
      delta,
      request.userId,
    ]);
  }
  const answer = {
    status: 200,
    body: envelope(200, "OK", {
      user_id: request.userId,
      operator_tx_id: randomUUID(),
      provider_tx_id: request.providerTxId,
      new_balance: balance + delta,
      currency,
    }),
  };
  return record(connection, request, delta, answer);
}

async function record(
  connection: PoolConnection,
  request: Transfer,
  delta: bigint,
  answer: Answer,
): Promise<Answer> {
  await connection.query(
    `INSERT INTO transactions (provider_tx_id, user_id, action, amount, bet_tx_id, body_sha256, status, response)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      request.providerTxId,
      request.userId,
      request.action,
      delta,
      request.betTxId ?? null,
      request.bodySha256,
      answer.status,
      answer.body,
    ],
  );
  return answer;
}

export async function balanceOf(pool: Pool, userId: string): Promise<Answer> {
  const [rows] = await pool.query<RowDataPacket[]>(
    "SELECT balance, currency FROM wallets WHERE user_id = ?",
    [userId],
  );
  const wallet = rows[0];
  if (!wallet) return { status: 404, body: envelope(404, "user not found") };
  return {
    status: 200,
    body: envelope(200, "OK", { user_id: userId, currency: wallet.currency, amount: BigInt(wallet.balance) }),
  };
}
