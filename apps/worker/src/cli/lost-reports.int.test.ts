import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { type RoundReport, roundReportEventId } from "@wallet/contracts/side-effects";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { runCli } from "@wallet/ledger/testing/run-cli";
import { sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { afterAll, describe, expect, inject, it } from "vitest";

// `pnpm --silent side-effects lost-reports --since <point>` as an SRE runs it after a failover: the
// unread reports of rounds whose close the ledger lost, in rounds:at-risk's line shape; a time or a
// flag it would guess at refused; and a REDIS_PREFIX with no reporting queue refused, not read as "0".
const ledger = useTestLedger();
const prefix = `lost-reports-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "lost-reports-test");
const queues = new SideEffectQueues(redis, prefix);
const workerDir = fileURLToPath(new URL("../../", import.meta.url));
const usage =
  "(usage: pnpm side-effects republish --topic reporting --since <ISO time with zone, e.g. 2026-11-20T00:00:00Z> | " +
  "retry --dead [--operator <id>] [--round <round id>] | lost-reports --since <ISO time with zone>)";

afterAll(async () => {
  await queues.close();
  await deleteKeysUnder(inject("redisUrl"), prefix);
  redis.disconnect();
});

function sideEffects(args: string[], redisPrefix = prefix) {
  const env = {
    ...process.env,
    DATABASE_URL: ledger.url,
    REDIS_URL: inject("redisUrl"),
    REDIS_PREFIX: redisPrefix,
  };
  return runCli(process.execPath, ["--import", "tsx", "src/cli/side-effects.ts", ...args], {
    cwd: workerDir,
    env,
  });
}

const report = (operatorId: number, roundId: string, closedAt: string): RoundReport => ({
  eventId: roundReportEventId(operatorId, roundId),
  schemaVersion: 2,
  operatorId,
  roundId,
  game: "crashGame",
  closedAt,
  betCount: 1,
  byCurrency: [{ currency: "EUR", betCount: 1, stakeSum: "1000", payoutSum: "0", ggr: "1000" }],
  reconciliation: "matched",
});

describe("pnpm side-effects lost-reports", () => {
  it("refuses a time it would guess at and a flag it does not know: exit 2, one line, nothing on stdout", async () => {
    const refusals: Array<[string[], string]> = [
      [
        ["lost-reports", "--since", "1"],
        '--since: "1" is not a full ISO 8601 date-time with a zone, e.g. 2026-11-26T01:49:56Z',
      ],
      [
        ["lost-reports", "--since", "2026-11-26T01:49:56.5"],
        '--since: "2026-11-26T01:49:56.5" has no zone: end it with Z (UTC) or an offset such as +01:00',
      ],
      [["lost-reports", "--since", "2026-11-26T01:49:56Z", "--bogus"], "Unknown option '--bogus'"],
      [["lost-reports"], "give --since"],
      [
        ["republish", "--topic", "reporting", "--since", "yesterday"],
        '--since: "yesterday" is not a full ISO 8601 date-time with a zone, e.g. 2026-11-26T01:49:56Z',
      ],
      [["retry", "--dead", "--bogus"], "Unknown option '--bogus'"],
      [["lost"], 'unknown command "lost"'],
    ];
    for (const [args, problem] of refusals)
      expect({ args, ...(await sideEffects(args)) }).toEqual({
        args,
        code: 2,
        stdout: "",
        stderr: `${problem} ${usage}\n`,
      });
  });

  it("lists each unread report of a round whose close the ledger lost, with its operator and the players the ledger still names", async () => {
    const player = await playerWithSession(ledger);
    // A round whose bet survived and whose close was lost; one lost whole; one whose close is held;
    // one closed before the point.
    await sendWithdraw(ledger, betBody(player, { action_id: "bets-survived" }));
    await sendWithdraw(ledger, betBody(player, { action_id: "close-held" }));
    expect((await sendDeposit(ledger, closeRoundBody("close-held", [1_000], [0]))).status).toBe(200);
    await queues.reporting.publish([
      report(1, "bets-survived", "2026-11-26T01:49:57.000Z"),
      report(2, "lost-whole", "2026-11-26T01:49:58.000Z"),
      report(1, "close-held", "2026-11-26T01:49:58.500Z"),
      report(1, "before-point", "2026-11-26T01:49:00.000Z"),
    ]);

    const ran = await sideEffects(["lost-reports", "--since", "2026-11-26T02:49:56+01:00"]);
    expect(ran.code).toBe(0);
    const evidence = (operatorId: number, roundId: string) =>
      `its round report (round-report:${operatorId}:${roundId}) is unread on the reporting queue, and the ledger holds no CLOSE_ROUND: the close was acknowledged and lost`;
    expect(
      ran.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      {
        category: "lost",
        reason: "report_without_close",
        operatorId: 1,
        roundId: "bets-survived",
        userIds: [player.userId],
        createdAt: expect.stringMatching(/Z$/),
        closedAt: "2026-11-26T01:49:57.000Z",
        evidence: evidence(1, "bets-survived"),
      },
      {
        category: "lost",
        reason: "report_without_close",
        operatorId: 2,
        roundId: "lost-whole",
        userIds: null,
        userIdsUnknown:
          "a round report names no player, and the ledger holds nothing of this round: its players are in the platform's round history",
        createdAt: null,
        closedAt: "2026-11-26T01:49:58.000Z",
        evidence: evidence(2, "lost-whole"),
      },
    ]);
    expect(ran.stderr).toBe(
      `lost: 2 round(s), check: 0 round(s). 3 unread round report(s) under REDIS_PREFIX "${prefix}" of rounds closed ` +
        "since 2026-11-26T01:49:56.000Z; 2 of a round whose close the ledger does not hold\n",
    );
  });

  it("refuses to say 0 for a REDIS_PREFIX that holds no reporting queue, naming it and the prefixes that hold one", async () => {
    await queues.reporting.publish([report(1, "any", "2026-11-26T01:49:57.000Z")]);
    const wrong = `wallet-${randomUUID().slice(0, 8)}`;
    const ran = await sideEffects(["lost-reports", "--since", "2026-11-26T01:49:56Z"], wrong);
    expect([ran.code, ran.stdout]).toEqual([4, ""]);
    expect(ran.stderr).toMatch(
      new RegExp(
        `^REDIS_PREFIX "${wrong}" holds no reporting queue: no report was ever published under it, so none can be read there; ` +
          "set REDIS_PREFIX to the wallet's own \\(prefixes holding one: .*\\)\\n$",
      ),
    );
    expect(ran.stderr).toContain(`"${prefix}"`);
  });
});
