import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ArchivedRowsCollector } from "./archived-rows.ts";
import { bigintOf, dateOf, namedRow, textOf } from "./binlog-columns.ts";
import { type BinlogTransaction, binlogValue, DecodedRowsParser } from "./decoded-rows.ts";

// Real output of `mariadb-binlog --base64-output=decode-rows --verbose --start-position=<point>` (MariaDB
// 10.11) of the wallet's own writes after a point, on a server of its own with the runbook's binary-log
// settings, and the columns of its tables (faults/src/faults/backup/capture-binlog-fixture.ts). After
// the point: bob (tenant 2, a user id with a quote, a backslash, a tab and an é) created; alice's WIN
// of her bet from before the point; her BET of 700 in r-after rolled back; bob's BET of 300 in his
// r-after; alice's FREE_BET in r-after; the close of r-before; a +123 adjustment of alice's.
const fixtures = new URL("./fixtures/", import.meta.url);
const text = readFileSync(new URL("after-point.binlog.txt", fixtures), "latin1");
const { point, database, columns } = JSON.parse(
  readFileSync(new URL("after-point.columns.json", fixtures), "utf8"),
) as { point: string; database: string; columns: Record<string, string[]> };
const bob = "bob'\\\t\u00e9";

function parse(lines: string[]) {
  const parser = new DecodedRowsParser();
  const transactions = lines.flatMap((line) => parser.line(line) ?? []);
  return { transactions, ...parser.end() };
}

const all = parse(text.split("\n")).transactions;
const rowsOf = (table: string, transactions: BinlogTransaction[] = all) =>
  transactions.flatMap((transaction) => transaction.changes.filter((change) => change.table === table));
const named = (table: string, values: ReturnType<typeof binlogValue>[] | undefined) =>
  namedRow(values ?? [], columns[table] ?? []);

describe("mariadb-binlog's decoded rows, as MariaDB 10.11 prints them", () => {
  it("reads each committed transaction after the point, in order, with its GTID", () => {
    const sequence = Number(point.split("-")[2]);
    expect(all.map((transaction) => transaction.gtid)).toEqual(
      Array.from({ length: 11 }, (_, at) => `0-1-${sequence + 1 + at}`),
    );
    expect(
      all.every((transaction) => transaction.changes.every((change) => change.database === database)),
    ).toBe(true);
  });

  it("names a row's @n by the table's columns and gives a string's bytes back exactly", () => {
    const [player] = rowsOf("players");
    expect(player?.op).toBe("insert");
    const row = named("players", player?.after);
    expect(textOf(row.user_id)).toBe(bob);
    expect(bigintOf(row.tenant_id)).toBe(2n);
    expect(textOf(row.minbet)).toBeNull();
    expect(dateOf(row.created_at)?.getUTCMilliseconds()).toBeTypeOf("number");
  });

  it("reads signed amounts, not their unsigned echo", () => {
    const lines = rowsOf("journal_entries").map((change) => named("journal_entries", change.after));
    expect(
      lines.map((line) => [textOf(line.kind), bigintOf(line.amount), textOf(line.provider_tx_id)]),
    ).toEqual([
      ["OPENING", 5_000n, null],
      ["WIN", 2_500n, "win-after"],
      ["BET", -700n, "bet-voided"],
      ["ROLL_BACK", 700n, "rollback-after"],
      ["BET", -300n, "bet-bob"],
      ["ADJUSTMENT", 123n, "operator-adjustment:fix-1"],
    ]);
  });

  it("keeps an update's row before and after", () => {
    const [closed] = rowsOf("rounds").filter((change) => change.op === "update");
    expect(textOf(named("rounds", closed?.before).round_id)).toBe("r-before");
    expect(dateOf(named("rounds", closed?.before).closed_at)).toBeNull();
    expect(dateOf(named("rounds", closed?.after).closed_at)).toBeInstanceOf(Date);
  });

  it("leaves out a transaction the output ends inside, and says so", () => {
    const lines = text.split("\n");
    const cut = parse(lines.slice(0, lines.lastIndexOf("COMMIT/*!*/;")));
    expect(cut.transactions.map((transaction) => transaction.gtid)).toEqual(
      all.slice(0, -1).map((t) => t.gtid),
    );
    expect(cut.incomplete).toBe(true);
    expect(parse(lines).incomplete).toBe(false);
  });

  it("reads each printed form of a value", () => {
    expect(binlogValue("NULL")).toBeNull();
    expect(binlogValue("-5000 (18446744073709546616)")).toBe("-5000");
    expect(binlogValue("42")).toBe("42");
    expect(binlogValue("''")).toEqual(Buffer.alloc(0));
    expect(binlogValue("'it's'")).toEqual(Buffer.from("it's"));
    expect(binlogValue("'a\\x0ab\\x00\\c'")).toEqual(Buffer.from("a\nb\0\\c", "latin1"));
    expect(binlogValue("'\u00c3\u00a9'")).toEqual(Buffer.from("\u00e9", "utf8"));
  });
});

describe("the archived rows of the ledger's tables", () => {
  const collect = (name: string) => {
    const collector = new ArchivedRowsCollector(name, new Map(Object.entries(columns)));
    for (const transaction of all) collector.add(transaction);
    return collector.rows;
  };

  it("collects players, lines, bets, closes, rounds and answers by meaning", () => {
    const rows = collect(database);
    expect([...rows.players.values()]).toEqual([{ tenantId: 2, userId: bob }]);
    expect(rows.bets.map((bet) => [bet.tenantId, bet.kind, bet.providerTxId, bet.roundId])).toEqual([
      [1, "BET", "bet-voided", "r-after"],
      [2, "BET", "bet-bob", "r-after"],
      [1, "FREE_BET", "free-after", "r-after"],
    ]);
    expect(rows.closes).toEqual([
      {
        tenantId: 1,
        playerId: null,
        kind: "CLOSE_ROUND",
        amount: 0n,
        providerTxId: "r-before-1-close-round",
        roundId: "r-before",
      },
    ]);
    const closed = rows.rounds.get("1\nr-before");
    expect(closed?.closedAt).toBeInstanceOf(Date);
    expect([...rows.rounds.keys()].sort()).toEqual(["1\nr-after", "1\nr-before", "2\nr-after"]);
    expect(rows.answers.map((answer) => [answer.providerTxId, answer.status])).toContainEqual([
      "bet-bob",
      200,
    ]);
    expect(rows.transactions).toBe(11);
  });

  it("reads nothing of another database the server holds", () => {
    const rows = collect("wallet_other");
    expect([rows.players.size, rows.journal.length, rows.bets.length, rows.closes.length]).toEqual([
      0, 0, 0, 0,
    ]);
  });
});
