import type { OperatorRoute } from "./route.ts";
import { adjustBalanceRoute } from "./routes/adjust-balance.ts";
import { closeRoundRoute } from "./routes/close-round.ts";
import { createPlayerRoute } from "./routes/create-player.ts";
import { getLeaderboardRoute } from "./routes/get-leaderboard.ts";
import { getPlayerRoute } from "./routes/get-player.ts";
import { getRefusedCloseBodyRoute } from "./routes/get-refused-close-body.ts";
import { getRoundRoute } from "./routes/get-round.ts";
import { grantFreeBetsRoute } from "./routes/grant-free-bets.ts";
import { invalidateGameCacheRoute } from "./routes/invalidate-game-cache.ts";
import { launchGameRoute } from "./routes/launch-game.ts";
import { listAuditRoute } from "./routes/list-audit.ts";
import { listGamesRoute } from "./routes/list-games.ts";
import { listRefusedClosesRoute } from "./routes/list-refused-closes.ts";
import { listTransactionsRoute } from "./routes/list-transactions.ts";
import { mintUserTokenRoute } from "./routes/mint-user-token.ts";

/**
 * Every route behind the bearer token, in the order the document lists them: app.ts mounts exactly
 * these and openapi.ts documents exactly these (openapi.test.ts checks the app serves no other).
 */
export const operatorRoutes: readonly OperatorRoute[] = [
  createPlayerRoute,
  getPlayerRoute,
  mintUserTokenRoute,
  launchGameRoute,
  adjustBalanceRoute,
  grantFreeBetsRoute,
  listTransactionsRoute,
  listGamesRoute,
  invalidateGameCacheRoute,
  getRoundRoute,
  closeRoundRoute,
  listRefusedClosesRoute,
  getRefusedCloseBodyRoute,
  listAuditRoute,
  getLeaderboardRoute,
];
