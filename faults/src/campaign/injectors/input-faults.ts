import { pruneExpired } from "@wallet/ledger/retention/prune-expired";
import { pruneAppliedOutbox } from "@wallet/ledger/side-effects/outbox-queries";
import { lockRoundThenWallets } from "@wallet/ledger/testing/locks";
import { newestRound } from "@wallet/ledger/testing/round-reads";
import fc from "fast-check";
import { fuzzCase } from "../../faults/hostile/fuzz-cases.ts";
import { sendCases } from "../../faults/hostile/send-cases.ts";
import { testTenants } from "../../harness/fault-system.ts";
import type { ScheduledFault } from "../schedule/catalog.ts";
import type { CampaignSystem } from "../system.ts";
import type { PlatformCalls } from "../workload/platform-calls.ts";
import { pause } from "./pause.ts";

/** The gateway's limit for every body but a known key's CLOSE_ROUND (contract: `BODY_LIMIT_BYTES`). */
const BODY_LIMIT = 64 * 1024;

/**
 * A burst of the hostile-input suite's fuzzed requests (the fault's seed draws them), sent to the
 * platform's address beside the load. Each must get the 4xx its case expects; a 503 or no answer is
 * accepted only as a transient failure of the moment (another fault may be on), never another status.
 */
export async function hostileBurst(
  system: CampaignSystem,
  fault: ScheduledFault,
): Promise<{ note: string; problems: string[] }> {
  const cases = fc.sample(fuzzCase(BODY_LIMIT), {
    numRuns: fault.detail.requests ?? 100,
    seed: fault.detail.seed ?? 1,
  });
  const port = system.faults.front?.port ?? 0;
  const sent = await sendCases(port, cases, 4);
  const problems = sent.problems.filter(
    (problem) => !/HTTP 503|no answer|ECONNRE|socket hang up/.test(problem),
  );
  return { note: `${cases.length} hostile requests: ${JSON.stringify(sent.histogram)}`, problems };
}

/**
 * A heavy CLOSE_ROUND (`entries` bets in its arrays, megabytes) for a round of its own, sent as the
 * platform sends it: resent on a 503 under the contract's policy, recorded in the history.
 */
export async function heavyClose(calls: PlatformCalls, fault: ScheduledFault, tag: string): Promise<string> {
  const entries = fault.detail.entries ?? 20_000;
  const operatorId = testTenants[fault.index % testTenants.length]?.operatorId ?? 1;
  const roundId = `${tag}-heavy-${fault.index}`;
  const answer = await calls.send(
    operatorId,
    "deposit",
    {
      amount: 0,
      provider: "campaign",
      provider_tx_id: `${roundId}-${operatorId}-close-round`,
      game: "crashGame",
      action: "CLOSE_ROUND",
      action_id: roundId,
      attributes: [
        {
          name: "crashGameCashOutCoefficients",
          value: JSON.stringify(Array.from({ length: entries }, (_, i) => (i % 7) * 0.5)),
        },
        {
          name: "crashGameBets",
          value: JSON.stringify(Array.from({ length: entries }, (_, i) => 100 + (i % 50) * 100)),
        },
      ],
    },
    "CLOSE_ROUND",
  );
  return `${entries} entries: ${answer.status} after ${answer.attempts} sends`;
}

/**
 * Transactions of the campaign's own lock each tenant's newest round, then the players' wallets (the
 * opposite order to a bet), again and again while the fault lasts: deadlocks with the ledger's own.
 */
export async function deadlockStorm(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const until = Date.now() + fault.durationMs;
  const outcomes = { victim: 0, held: 0, failed: 0 };
  const storm = async (tenantId: number) => {
    const mine = system.players
      .filter((player) => player.tenantId === tenantId)
      .map((player) => player.playerId);
    while (Date.now() < until) {
      try {
        const roundId = await newestRound(system.faults.ledger, tenantId);
        if (roundId)
          outcomes[
            await lockRoundThenWallets(
              system.faults.ledger,
              tenantId,
              roundId,
              mine,
              fault.detail.holdMs ?? 30,
            )
          ] += 1;
        else await pause(100);
      } catch {
        // The server may be down under another fault: the storm waits for it.
        outcomes.failed += 1;
        await pause(200);
      }
    }
  };
  await Promise.all(testTenants.flatMap(({ operatorId }) => [storm(operatorId), storm(operatorId)]));
  return JSON.stringify(outcomes);
}

/**
 * Retention forced now, beside the load: applied outbox rows older than 2 s, and every table's expired
 * rows at the production windows (nothing the campaign wrote is that old: the deletes run, and must
 * take nothing still owed).
 */
export async function forceRetention(system: CampaignSystem): Promise<string> {
  const { db } = system.faults.ledger;
  try {
    const outbox = await pruneAppliedOutbox(db, 2, 200);
    const days = 86_400;
    const refused = await pruneExpired(db, "refused_closes", 90 * days);
    const actions = await pruneExpired(db, "operator_actions", 400 * days);
    const tokens = await pruneExpired(db, "operator_api_tokens", 400 * days);
    return `outbox ${outbox}, refused closes ${refused.deleted}, operator actions ${actions.deleted}, tokens ${tokens.deleted}`;
  } catch (error) {
    return `not run: ${error instanceof Error ? error.message : String(error)}`;
  }
}
