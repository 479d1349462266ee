import { createOperatorToken, revokeOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import type { LaunchedPlayer } from "../../harness/platform-load.ts";
import type { Random } from "../schedule/random.ts";
import type { CampaignSystem } from "../system.ts";
import type { OperatorCalls } from "./operator-calls.ts";

interface Adjustment {
  player: LaunchedPlayer;
  body: { amount: number; reason: string; reference: string };
}

/**
 * The operator's back office, concurrent with the platform's callbacks on the same players: cashier
 * credits and debits (and their replays, and a reference reused with another amount), free-bet
 * grants, and an operator-API token minted, used, revoked and used again (it must then be refused).
 * Every call joins the history; what only this workload can know (a revoked token served) is
 * returned as problems.
 */
export class BackOffice {
  readonly problems: string[] = [];
  private readonly adjustments: Adjustment[] = [];
  private step = 0;

  constructor(
    private readonly system: CampaignSystem,
    private readonly calls: OperatorCalls,
    private readonly random: Random,
    private readonly players: LaunchedPlayer[],
    private readonly tag: string,
  ) {}

  async act(): Promise<void> {
    this.step += 1;
    const draw = this.random.next();
    if (draw < 0.35) return this.adjust(this.random.int(100, 5_000));
    if (draw < 0.55) return this.adjust(-this.random.int(100, 3_000));
    if (draw < 0.65) return this.replay(false);
    if (draw < 0.7) return this.replay(true);
    if (draw < 0.92) return this.grant();
    return this.tokenLifecycle();
  }

  private adjust(amount: number): Promise<void> {
    const player = this.random.pick(this.players);
    const body = { amount, reason: "campaign cashier", reference: `${this.tag}-adj-${this.step}` };
    this.adjustments.push({ player, body });
    return this.send(player, body);
  }

  /** An earlier adjustment again: the same body (answered as before, 200) or another amount (409). */
  private replay(conflicting: boolean): Promise<void> {
    if (this.adjustments.length === 0) return this.adjust(this.random.int(100, 5_000));
    const { player, body } = this.random.pick(this.adjustments);
    return this.send(player, conflicting ? { ...body, amount: body.amount + 1 } : body);
  }

  private async send(player: LaunchedPlayer, body: Adjustment["body"]): Promise<void> {
    await this.calls.call({
      kind: "adjust",
      operatorId: player.tenantId,
      method: "POST",
      path: `/v1/players/${encodeURIComponent(player.userId)}/adjustments`,
      body,
      userId: player.userId,
      key: body.reference,
      amount: body.amount,
    });
  }

  private async grant(): Promise<void> {
    const player = this.random.pick(this.players);
    const count = this.random.int(1, 2);
    await this.calls.call({
      kind: "grant-free-bets",
      operatorId: player.tenantId,
      method: "POST",
      path: `/v1/players/${encodeURIComponent(player.userId)}/free-bets`,
      body: { count },
      userId: player.userId,
      count,
    });
  }

  /**
   * A token minted (as `pnpm tokens create` does), used, revoked, and used again: refused from then
   * on. The CLI's writes go straight to the ledger, which a fault may have down: they are tried again
   * as an operator would, and the lifecycle is skipped if the token cannot be minted.
   */
  private async tokenLifecycle(): Promise<void> {
    const player = this.random.pick(this.players);
    const db = this.system.faults.ledger.db;
    const minted = await persist(() =>
      createOperatorToken(db, {
        tenantId: player.tenantId,
        scope: "read",
        label: `${this.tag}-${this.step}`,
      }),
    );
    if (!minted) return;
    const { token, publicId } = minted;
    const read = {
      kind: "balance" as const,
      operatorId: player.tenantId,
      method: "GET",
      path: `/v1/players/${encodeURIComponent(player.userId)}`,
      token,
      userId: null,
    };
    const before = await this.calls.call({ ...read, kind: "mint-token" });
    const revoked = await persist(() => revokeOperatorToken(db, publicId));
    if (revoked === undefined) {
      this.problems.push(`token ${publicId}: could not be revoked in 60 s (the ledger unreachable)`);
      return;
    }
    const after = await this.calls.call({ ...read, kind: "revoke-token" });
    if (before.status !== 200 && before.status !== 0 && before.status !== 503)
      this.problems.push(`token ${publicId}: a live token's read answered ${before.status}`);
    if (after.status !== 401 && after.status !== 0 && after.status !== 503)
      this.problems.push(`token ${publicId}: read after its revocation answered ${after.status}, not 401`);
  }
}

/** `work` until it succeeds, for up to 60 s (a database killed or failed over meanwhile); undefined if it never did. */
async function persist<T>(work: () => Promise<T>): Promise<T | undefined> {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      return await work();
    } catch {
      if (Date.now() > until) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
