import { type Game, gameList } from "@wallet/contracts/game";
import { defaultRetryPolicy, getJson, type PlatformObserver, type RetryPolicy } from "./http.ts";
import { PlatformError } from "./platform-error.ts";

export interface CatalogOptions {
  baseUrl: string;
  operatorId: number;
  publicKey: string;
  /** How long a fetched catalog is served without asking again (the contract recommends 5–15 min). */
  ttlMs?: number;
  retry?: RetryPolicy;
  /** Injectable clock, so TTL behaviour is testable without waiting. */
  now?: () => number;
  observer?: PlatformObserver;
}

export interface CatalogResult {
  games: Game[];
  fetchedAt: number;
  /** True when the platform failed transiently and an expired copy was served instead. */
  stale: boolean;
}

/**
 * The operator's cache of `GET /api/v1/games`: fresh for `ttlMs`; concurrent misses share one
 * upstream call; an expired copy is served while the platform answers 5xx or times out; explicit
 * invalidation for when the operator's game configuration changes.
 */
export class GameCatalog {
  private cached: { games: Game[]; fetchedAt: number } | undefined;
  private inFlight: Promise<CatalogResult> | undefined;
  /** Bumped by invalidate(): a fetch started before it may answer its callers but not refill the cache. */
  private generation = 0;
  readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: CatalogOptions) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
  }

  async list(): Promise<CatalogResult> {
    const observe = this.options.observer?.catalogLookup;
    const cached = this.cached;
    if (cached && this.now() - cached.fetchedAt < this.ttlMs) {
      observe?.("hit");
      return { ...cached, stale: false };
    }
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = undefined;
    });
    try {
      const result = await this.inFlight;
      observe?.(result.stale ? "stale" : "miss");
      return result;
    } catch (error) {
      observe?.("error");
      throw error;
    }
  }

  async find(gameId: string): Promise<Game | undefined> {
    return (await this.list()).games.find((game) => game.id === gameId);
  }

  invalidate(): void {
    this.cached = undefined;
    this.generation += 1;
  }

  private async refresh(): Promise<CatalogResult> {
    const generation = this.generation;
    const url = new URL("/api/v1/games", this.options.baseUrl);
    url.searchParams.set("operatorId", String(this.options.operatorId));
    try {
      const body = await getJson(
        url,
        { "x-public-key": this.options.publicKey },
        this.options.retry ?? defaultRetryPolicy,
        "catalog",
        this.options.observer,
      );
      const parsed = gameList.safeParse(body);
      if (!parsed.success)
        throw new PlatformError("invalid_response", "platform's game list does not match the contract");
      const fresh = { games: parsed.data, fetchedAt: this.now() };
      if (generation === this.generation) this.cached = fresh;
      return { ...fresh, stale: false };
    } catch (error) {
      if (error instanceof PlatformError && error.transient && this.cached)
        return { ...this.cached, stale: true };
      throw error;
    }
  }
}
