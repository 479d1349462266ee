import { balanceOf, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { tenantFootprint } from "@wallet/ledger/testing/tenant-reads";
import type { TestLedger } from "@wallet/ledger/testing/test-ledger";
import type { TestTenant } from "../harness/fault-system.ts";

/** What a breach of tenant isolation would move: both tenants' row counts, one player's balance and journal. */
export async function isolationFootprint(
  ledger: TestLedger,
  [tenant1, tenant2]: [TestTenant, TestTenant],
  playerId: number,
) {
  return {
    tenant1: await tenantFootprint(ledger, tenant1.operatorId),
    tenant2: await tenantFootprint(ledger, tenant2.operatorId),
    balance: await balanceOf(ledger, playerId),
    journal: await journalOf(ledger, playerId),
  };
}
