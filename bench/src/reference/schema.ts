import mysql from "mysql2/promise";

/**
 * The reference wallet's own database: a wallet per player and a transaction per `provider_tx_id`
 * with its stored response. Nothing here is shared with `packages/ledger`: the benchmark compares
 * the product against an independent, plain implementation (bench/README.md).
 */
const tables = [
  `CREATE TABLE wallets (
     user_id VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin PRIMARY KEY,
     currency CHAR(3) NOT NULL,
     balance BIGINT NOT NULL,
     opening BIGINT NOT NULL
   )`,
  `CREATE TABLE transactions (
     provider_tx_id VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin PRIMARY KEY,
     user_id VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
     action VARCHAR(16) NOT NULL,
     amount BIGINT NOT NULL,
     bet_tx_id VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
     refunded_by VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
     body_sha256 CHAR(64) NOT NULL,
     status SMALLINT NOT NULL,
     response TEXT NOT NULL,
     created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
     KEY transactions_user (user_id)
   )`,
];

/** A connection to the server behind `url`, outside any database, and the name of `url`'s database. */
async function serverOf(url: string) {
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = "/";
  return { name, admin: await mysql.createConnection({ uri: server.toString() }) };
}

/** Recreates the database at `url` with these players, each holding `balance` millis. */
export async function seedReference(url: string, userIds: string[], balance: bigint): Promise<void> {
  const { name, admin } = await serverOf(url);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\``);
    await admin.query(`USE \`${name}\``);
    for (const table of tables) await admin.query(table);
    for (let first = 0; first < userIds.length; first += 500) {
      const rows = userIds.slice(first, first + 500).map((userId) => [userId, "EUR", balance, balance]);
      await admin.query("INSERT INTO wallets (user_id, currency, balance, opening) VALUES ?", [rows]);
    }
  } finally {
    await admin.end();
  }
}

/** Every wallet whose balance is not its opening balance plus its transactions (must be none). */
export async function referenceProblems(url: string): Promise<{ wallets: number; problems: string[] }> {
  const connection = await mysql.createConnection({
    uri: url,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  try {
    const [rows] = await connection.query(
      `SELECT w.user_id, w.balance, w.opening + COALESCE(SUM(t.amount), 0) AS expected
         FROM wallets w LEFT JOIN transactions t ON t.user_id = w.user_id AND t.status = 200
        GROUP BY w.user_id, w.balance, w.opening`,
    );
    const wallets = rows as Array<{ user_id: string; balance: string; expected: string }>;
    const problems = wallets
      .filter((row) => BigInt(row.balance) !== BigInt(row.expected))
      .map((row) => `${row.user_id}: balance ${row.balance}, transactions say ${row.expected}`);
    return { wallets: wallets.length, problems };
  } finally {
    await connection.end();
  }
}

export async function dropReference(url: string): Promise<void> {
  const { name, admin } = await serverOf(url);
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => admin.end());
}
