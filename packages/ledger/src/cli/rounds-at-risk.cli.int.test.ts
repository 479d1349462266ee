import { describe, expect, it } from "vitest";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { betBody, settleBody } from "../testing/callback-bodies.ts";
import { playerWithSession } from "../testing/players.ts";
import { type CliRun, runRoundsAtRisk } from "../testing/run-cli.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";

// `pnpm --silent rounds:at-risk` as an SRE runs it after a failover: what it refuses (exit 2, one line
// on stderr, nothing on stdout), what it prints (one JSON line a round, each naming its operator and
// players), and a failover time given too late (exit 3, the likely time on stderr, nothing listed).
// Its read of the acknowledgement log: `rounds-at-risk-ack-log.cli.int.test.ts`.
const ledger = useTestLedger();
const usage =
  "(usage: pnpm --silent rounds:at-risk (--failover-at <ISO 8601 time with zone> | --point <ISO 8601 time with zone> | --after-gtid <GTID> --archive <binlog dir>))";

const atRisk = (args: string[], viaPnpm = false): Promise<CliRun> =>
  runRoundsAtRisk(ledger.url, args, { viaPnpm });

describe("pnpm rounds:at-risk", () => {
  it("refuses what it would guess at, a time without a zone, a number, an unknown flag: exit 2, one line, nothing on stdout", async () => {
    const refusals: Array<[string[], string]> = [
      [
        ["--failover-at", "1"],
        '--failover-at: "1" is not a full ISO 8601 date-time with a zone, e.g. 2026-11-26T01:49:56Z',
      ],
      [
        ["--point", "1"],
        '--point: "1" is not a full ISO 8601 date-time with a zone, e.g. 2026-11-26T01:49:56Z',
      ],
      [
        ["--failover-at", "2026-11-26T01:49:56"],
        '--failover-at: "2026-11-26T01:49:56" has no zone: end it with Z (UTC) or an offset such as +01:00',
      ],
      [["--failover-at", "2026-11-26T01:49:56Z", "--bogus"], "Unknown option '--bogus'"],
      [["--since", "2026-11-26T01:49:56Z"], "Unknown option '--since'"],
      [["--failover-at"], "Option '--failover-at <value>' argument missing"],
      [
        ["--failover-at", "2026-11-26T01:49:56Z", "extra"],
        "Unexpected argument 'extra'. This command does not take positional arguments",
      ],
      [[], "give one of --failover-at and --point"],
      [
        ["--failover-at", "2026-11-26T01:49:56Z", "--point", "2026-11-26T01:49:56Z"],
        "give one of --failover-at and --point",
      ],
    ];
    for (const [args, problem] of refusals)
      expect({ args, ...(await atRisk(args)) }).toEqual({
        args,
        code: 2,
        stdout: "",
        stderr: `${problem} ${usage}\n`,
      });
  });

  it("prints one JSON line a round, lost first, each naming its operator and players; counts both categories first", async () => {
    const [a, b] = [await playerWithSession(ledger), await playerWithSession(ledger)];
    await sendWithdraw(ledger, betBody(a, { action_id: "cli-open" }));
    const lostBet = betBody(b, { action_id: "cli-lost" });
    await sendWithdraw(ledger, betBody(a, { action_id: "cli-lost" }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const failoverAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await sendDeposit(ledger, settleBody(b, lostBet, "WIN"))).status).toBe(400);

    // Through pnpm as the runbook says: stdout is the JSON lines and nothing else.
    const ran = await atRisk(["--failover-at", failoverAt.toISOString()], true);
    expect(ran.code).toBe(0);
    const lines = ran.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const mine = lines.filter((line) => String(line.roundId).startsWith("cli-"));
    expect(mine).toEqual([
      {
        category: "lost",
        reason: "win_for_unknown_bet",
        operatorId: 1,
        roundId: "cli-lost",
        userIds: [a.userId, b.userId].sort(),
        createdAt: expect.any(String),
        closedAt: null,
        evidence: expect.stringMatching(
          /^WIN .* its bet .* is unknown, a BET acknowledged and lost; open at the point the data ends$/,
        ),
      },
      {
        category: "check",
        reason: "open_at_point",
        operatorId: 1,
        roundId: "cli-open",
        userIds: [a.userId],
        createdAt: expect.any(String),
        closedAt: null,
        evidence: "open at the point the data ends",
      },
    ]);
    for (const line of lines) {
      expect(Object.keys(line).slice(0, 5)).toEqual([
        "category",
        "reason",
        "operatorId",
        "roundId",
        "userIds",
      ]);
      expect(line).not.toHaveProperty("tenantId");
    }
    expect(ran.stderr).toMatch(
      /^lost: 1 round\(s\), check: \d+ round\(s\)\. The surviving data ends at \S+Z \(POINT\)\./,
    );
  });

  it("says a failover time is late when the stored answers' silence lies before it: exit 3, the likely time, nothing listed", async () => {
    // A day of its own: answers every 50 ms for 20 s, none for 3 s (the address moving), then every 50 ms again.
    const base = Date.UTC(2026, 10, 20, 3, 0, 0);
    const times = [
      ...Array.from({ length: 400 }, (_, at) => base + at * 50),
      ...Array.from({ length: 200 }, (_, at) => base + 22_950 + at * 50),
    ];
    await ledger.db.insert(idempotencyRecords).values(
      times.map((time, at) => ({
        tenantId: 1,
        providerTxId: `silence-${at}`,
        bodySha256: "0".repeat(64),
        action: "BET",
        status: 200,
        response: "{}",
        createdAt: new Date(time),
      })),
    );
    const iso = (ms: number) => new Date(base + ms).toISOString();

    const late = await atRisk(["--failover-at", iso(25_000)]);
    expect(late).toEqual({
      code: 3,
      stdout: "",
      stderr:
        `--failover-at ${iso(25_000)} looks late: the stored answers fall silent for 3.0 s from ${iso(19_950)} to ${iso(22_950)} ` +
        "(50 ms between answers around it), as when a failover moves the address, and the answers after it are most likely " +
        `the new primary's. The likely failover time is the silence's start: run again with --failover-at ${iso(19_950)} ` +
        "(or with --point <time>, if you know where the surviving data ends). Nothing listed.\n",
    });
    // Inside the silence, at its start, or before it: the time is not late.
    for (const given of [21_000, 19_950, 10_000]) {
      const ran = await atRisk(["--failover-at", iso(given)]);
      expect([given, ran.code]).toEqual([given, 0]);
      expect(ran.stderr).toContain("(POINT)");
    }
  });
});
