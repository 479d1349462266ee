import { type LaunchQuery, type LaunchResult, launchQuery, launchResult } from "@wallet/contracts/game";
import { describeIssues } from "@wallet/contracts/validation";
import type { GameCatalog } from "./game-catalog.ts";
import { defaultRetryPolicy, getJson, type PlatformObserver, type RetryPolicy } from "./http.ts";
import { PlatformError } from "./platform-error.ts";

export interface LaunchOptions {
  baseUrl: string;
  publicKey: string;
  catalog: GameCatalog;
  retry?: RetryPolicy;
  observer?: PlatformObserver;
}

/**
 * `GET /api/v1/launch/{game}` → `launch_url` and `session_token`. Demo mode is refused here,
 * without asking the platform, unless the catalog says the game has `demoAvailable`.
 */
export async function launchGame(
  options: LaunchOptions,
  game: string,
  query: LaunchQuery,
): Promise<LaunchResult> {
  const checked = launchQuery.safeParse(query);
  if (!checked.success) throw new PlatformError("bad_request", describeIssues(checked.error));
  if (checked.data.portalMode === "demo") {
    const entry = await options.catalog.find(game);
    if (!entry) throw new PlatformError("not_found", `game ${game} is not in the operator's catalog`);
    if (!entry.demoAvailable) throw new PlatformError("demo_not_available", `game ${game} has no demo mode`);
  }
  const url = new URL(`/api/v1/launch/${encodeURIComponent(game)}`, options.baseUrl);
  for (const [name, value] of Object.entries(checked.data)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const body = await getJson(
    url,
    { "x-public-key": options.publicKey },
    options.retry ?? defaultRetryPolicy,
    "launch",
    options.observer,
  );
  const parsed = launchResult.safeParse(body);
  if (!parsed.success)
    throw new PlatformError(
      "invalid_response",
      "platform's launch answer has no launch_url or session_token",
    );
  return parsed.data;
}
