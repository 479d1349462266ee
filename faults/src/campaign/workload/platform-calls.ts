import type { CallbackOp } from "@wallet/contracts/jobs";
import { SimStats } from "@wallet/platform-sim/engine/stats";
import { type CallbackAnswer, sendCallback } from "@wallet/platform-sim/wallet-client";
import { testTenants } from "../../harness/fault-system.ts";
import type { CampaignSystem } from "../system.ts";
import { campaignRetryPolicy } from "./retry-policy.ts";

/**
 * The campaign's own platform traffic beside the simulator's rounds (odd rounds, heavy closes), sent
 * as the platform sends (`sendCallback`: signed, the contract's resend policy) and remembered the
 * way the simulator remembers its own, so both join one history.
 */
export class PlatformCalls {
  readonly stats = new SimStats();

  constructor(private readonly system: CampaignSystem) {}

  send<Op extends CallbackOp>(
    operatorId: number,
    op: Op,
    body: Record<string, unknown>,
    label: string,
  ): Promise<CallbackAnswer<Op>> {
    const tenant = testTenants.find((entry) => entry.operatorId === operatorId);
    if (!tenant) throw new Error(`no tenant ${operatorId}`);
    const operator = { ...tenant, walletUrl: this.system.faults.walletUrl };
    return sendCallback(operator, op, body, campaignRetryPolicy, this.stats, label);
  }
}
