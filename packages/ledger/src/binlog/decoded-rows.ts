/**
 * Reads what `mariadb-binlog --base64-output=decode-rows --verbose` prints of a row-based binary log:
 * each committed transaction's GTID and the rows it inserted, updated or deleted, with their values by
 * column position (`@1`, `@2`, … in the table's column order; names come from the database's
 * `information_schema.COLUMNS`, `binlog-columns.ts`). What the tool prints, as MariaDB 10.11 does:
 *
 *   #261128  2:38:44 server id 1  end_log_pos 796 CRC32 0xf416c6fa \tGTID 0-1-3 trans
 *   ### INSERT INTO `wallet`.`journal_entries`      (or ### UPDATE …, ### DELETE FROM …)
 *   ### SET                                         (the row after; ### WHERE: the row before)
 *   ###   @1=5                                      (a number; a negative BIGINT: -5000 (1844…616))
 *   ###   @2='bet-1'                                (a string's bytes; a byte below 0x20 as \xNN)
 *   ###   @3=NULL
 *   COMMIT/*!*\/;
 *
 * Lines are read as latin1, one character per byte, so a string's bytes come back exactly.
 */

/** A column's value as printed: NULL, a number's text, or a quoted string's bytes. */
export type BinlogValue = null | string | Buffer;

export interface RowChange {
  op: "insert" | "update" | "delete";
  database: string;
  table: string;
  /** By position (`@1` is `[0]`): the row before (update, delete) and after (insert, update). */
  before?: BinlogValue[];
  after?: BinlogValue[];
}

export interface BinlogTransaction {
  gtid: string;
  changes: RowChange[];
}

const gtidHeader = /^#\d{6} +\d+:\d\d:\d\d server id \d+ .*\tGTID (\d+-\d+-\d+)/;
const commit = "COMMIT/*!*/;";
const rowEvent = /^### (INSERT INTO|UPDATE|DELETE FROM) `((?:[^`]|``)+)`\.`((?:[^`]|``)+)`$/;
const column = /^### {3}@(\d+)=(.*)$/;
const ops = { "INSERT INTO": "insert", UPDATE: "update", "DELETE FROM": "delete" } as const;

/**
 * Fed the tool's lines in order, it hands back each transaction once its COMMIT is read. A
 * transaction the output ends inside (the archiver got only part of it: never committed by a
 * replay either) is counted by `end()`, not returned. DDL has no rows and no COMMIT: it is skipped.
 */
export class DecodedRowsParser {
  private open: BinlogTransaction | undefined;
  private change: RowChange | undefined;
  private values: BinlogValue[] | undefined;

  line(text: string): BinlogTransaction | undefined {
    const header = gtidHeader.exec(text);
    if (header) {
      this.open = { gtid: header[1] ?? "", changes: [] };
      this.change = undefined;
      return undefined;
    }
    if (!this.open) return undefined;
    if (text === commit) {
      const done = this.open;
      this.open = undefined;
      return done;
    }
    if (!text.startsWith("###")) return undefined;
    const event = rowEvent.exec(text);
    if (event) {
      const [, op = "", database = "", table = ""] = event;
      this.change = { op: ops[op as keyof typeof ops], database: unquote(database), table: unquote(table) };
      this.open.changes.push(this.change);
      this.values = undefined;
    } else if (text === "### SET" && this.change) {
      this.values = this.change.after = [];
    } else if (text === "### WHERE" && this.change) {
      this.values = this.change.before = [];
    } else {
      const found = column.exec(text);
      if (found && this.values) this.values[Number(found[1]) - 1] = binlogValue(found[2] ?? "");
    }
    return undefined;
  }

  /** Whether the output ended inside a transaction that had rows: they were never committed here. */
  end(): { incomplete: boolean } {
    const incomplete = (this.open?.changes.length ?? 0) > 0;
    this.open = undefined;
    return { incomplete };
  }
}

const unquote = (name: string) => name.replaceAll("``", "`");

/**
 * One printed value. A string is everything between the first and the last quote of the line (a
 * quote inside it is printed as is); `\xNN` is a byte below 0x20. Every other byte is printed as it
 * is, a backslash too: a string holding the four characters `\x41` reads back as `A`, which no id
 * the wallet stores holds.
 */
export function binlogValue(text: string): BinlogValue {
  if (text === "NULL") return null;
  if (text.startsWith("'") && text.endsWith("'") && text.length >= 2) {
    const inner = text.slice(1, -1);
    const bytes: number[] = [];
    for (let at = 0; at < inner.length; at++) {
      const escaped =
        inner[at] === "\\" && inner[at + 1] === "x" ? /^[0-9a-f]{2}/.exec(inner.slice(at + 2)) : null;
      if (escaped) {
        bytes.push(Number.parseInt(escaped[0], 16));
        at += 3;
      } else bytes.push(inner.charCodeAt(at) & 0xff);
    }
    return Buffer.from(bytes);
  }
  // A negative signed integer is followed by its unsigned reading: `-5000 (18446744073709546616)`.
  return text.split(" ")[0] ?? "";
}
