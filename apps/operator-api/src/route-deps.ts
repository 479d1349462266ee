import type { TenantConfig } from "@wallet/contracts/tenants";
import type { LedgerContext } from "@wallet/ledger/context";
import type { GameCatalog } from "@wallet/platform-client/game-catalog";
import type { PlatformObserver } from "@wallet/platform-client/http";
import type { LedgerRoute } from "@wallet/queue/call-ledger";
import type { CloseIntake } from "@wallet/queue/close-intake";

/** What every route's handler may use: built once in main.ts and handed to all of them. */
export interface RouteDeps extends LedgerRoute {
  /** Where a manual close past the ordinary body limit goes, as the platform's would (the close intake). */
  closes: Pick<CloseIntake, "call">;
  ctx: LedgerContext;
  tenants: TenantConfig[];
  /** How long a call through a ledger partition waits before answering 503 (CALLBACK_DEADLINE_MS). */
  deadlineMs: number;
  userTokenTtlSeconds: number;
  /** CLOSE_ROUND_BODY_LIMIT_BYTES: a manual close lists every bet of its round, like the platform's. */
  closeRoundBodyLimitBytes: number;
  platform: { baseUrl: string; catalogFor: (tenantId: number) => GameCatalog; observer?: PlatformObserver };
}
