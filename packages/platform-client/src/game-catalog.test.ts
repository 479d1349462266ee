import type { Game } from "@wallet/contracts/game";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GameCatalog } from "./game-catalog.ts";
import { launchGame } from "./launch.ts";
import { PlatformError } from "./platform-error.ts";
import { FakePlatform } from "./testing/fake-platform.ts";

const game = (id: string, demoAvailable = true): Game => ({
  id,
  name: id,
  category: "crash",
  gameUrl: `https://platform.test/${id}`,
  demoAvailable,
  mobileSupport: true,
  freeSpinSupport: false,
  imageLink: `https://platform.test/${id}.png`,
});

const platform = new FakePlatform();
let clock = 0;
const catalog = () =>
  new GameCatalog({
    baseUrl: platform.url,
    operatorId: 7,
    publicKey: "pk-7",
    ttlMs: 600_000,
    now: () => clock,
    retry: { attempts: 3, baseDelayMs: 5, timeoutMs: 300 },
  });

beforeAll(() => platform.start());
afterAll(() => platform.stop());
beforeEach(() => {
  platform.reset();
  clock = 1_000_000;
});

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error("expected a PlatformError");
}

describe("GameCatalog", () => {
  it("asks GET /api/v1/games?operatorId= with X-Public-Key, then serves the copy until the TTL passes", async () => {
    platform.always({ status: 200, body: [game("crashGame")] });
    const games = catalog();
    expect((await games.list()).games.map((entry) => entry.id)).toEqual(["crashGame"]);
    clock += 599_999;
    await games.list();
    expect(platform.requests).toHaveLength(1);
    expect(platform.requests[0]).toMatchObject({ path: "/api/v1/games", publicKey: "pk-7" });
    expect(platform.requests[0]?.query.get("operatorId")).toBe("7");
    clock += 1;
    await games.list();
    expect(platform.requests).toHaveLength(2);
  });

  it("invalidate() makes the next call fetch again", async () => {
    platform.queue({ status: 200, body: [game("a")] }, { status: 200, body: [game("a"), game("b")] });
    const games = catalog();
    await games.list();
    games.invalidate();
    expect((await games.list()).games.map((entry) => entry.id)).toEqual(["a", "b"]);
    expect(platform.requests).toHaveLength(2);
  });

  it("concurrent misses make one upstream call (single-flight)", async () => {
    platform.always({ status: 200, body: [game("crashGame")], delayMs: 50 });
    const games = catalog();
    const results = await Promise.all(Array.from({ length: 25 }, () => games.list()));
    expect(platform.requests).toHaveLength(1);
    expect(new Set(results.map((result) => JSON.stringify(result.games))).size).toBe(1);
  });

  it("a fetch that started before invalidate() does not refill the cache with old data", async () => {
    platform.queue({ status: 200, body: [game("old")], delayMs: 50 }, { status: 200, body: [game("new")] });
    const games = catalog();
    const early = games.list();
    games.invalidate();
    expect((await early).games[0]?.id).toBe("old");
    expect((await games.list()).games[0]?.id).toBe("new");
  });

  it("serves the expired copy, marked stale, when the platform answers 5xx after its retries", async () => {
    platform.queue({ status: 200, body: [game("crashGame")] });
    const games = catalog();
    await games.list();
    clock += 600_000;
    platform.always({ status: 503, body: { error: "down" } });
    const result = await games.list();
    expect(result).toMatchObject({ stale: true, games: [{ id: "crashGame" }] });
    expect(platform.requests).toHaveLength(1 + 3);
  });

  it("serves the expired copy when the platform times out", async () => {
    platform.queue({ status: 200, body: [game("crashGame")] });
    const games = catalog();
    await games.list();
    clock += 600_000;
    platform.always({ status: 200, hang: true });
    expect((await games.list()).stale).toBe(true);
  });

  it("retries 5xx and succeeds when the platform recovers", async () => {
    platform.queue({ status: 500 }, { status: 502 }, { status: 200, body: [game("crashGame")] });
    const result = await catalog().list();
    expect(result).toMatchObject({ stale: false, games: [{ id: "crashGame" }] });
    expect(platform.requests).toHaveLength(3);
  });

  it("without any copy, a platform that stays down is an 'unavailable' error", async () => {
    platform.always({ status: 503 });
    const error = await failure(catalog().list());
    expect([error.kind, error.status, error.message]).toEqual(["unavailable", 503, "platform answered 503"]);
  });

  it("400, 401 and 404 are precise errors, not retried, and never hidden behind a stale copy", async () => {
    for (const [status, kind] of [
      [400, "bad_request"],
      [401, "unauthorized"],
      [404, "not_found"],
    ] as const) {
      platform.reset();
      platform.queue({ status: 200, body: [game("crashGame")] });
      const games = catalog();
      await games.list();
      clock += 600_000;
      platform.always({ status, body: { message: "nope" } });
      const error = await failure(games.list());
      expect([error.kind, error.status]).toEqual([kind, status]);
      expect(error.message).toContain(`(${status})`);
      expect(platform.requests).toHaveLength(2);
    }
  });

  it("a list that breaks the contract's shape is an invalid_response", async () => {
    platform.always({ status: 200, body: [{ id: "x" }] });
    expect((await failure(catalog().list())).kind).toBe("invalid_response");
  });
});

describe("launchGame", () => {
  it("passes every launch parameter and returns launch_url and session_token", async () => {
    platform.queue({
      status: 200,
      body: { launch_url: "https://platform.test/play/abc", session_token: "s-abc" },
    });
    const result = await launchGame(
      { baseUrl: platform.url, publicKey: "pk-7", catalog: catalog() },
      "crashGame",
      {
        userToken: "u-1",
        currency: "EUR",
        platform: "desktop",
        portalMode: "real",
        returnUrl: "https://casino.test/lobby",
        language: "en",
      },
    );
    expect(result).toEqual({ launch_url: "https://platform.test/play/abc", session_token: "s-abc" });
    const request = platform.requests[0];
    expect(request?.path).toBe("/api/v1/launch/crashGame");
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      userToken: "u-1",
      currency: "EUR",
      platform: "desktop",
      portalMode: "real",
      returnUrl: "https://casino.test/lobby",
      language: "en",
    });
  });

  it("refuses demo mode locally for a game without demoAvailable, without calling launch", async () => {
    platform.always({ status: 200, body: [game("crashGame", false)] });
    const error = await failure(
      launchGame({ baseUrl: platform.url, publicKey: "pk-7", catalog: catalog() }, "crashGame", {
        userToken: "u-1",
        currency: "EUR",
        platform: "desktop",
        portalMode: "demo",
      }),
    );
    expect(error.kind).toBe("demo_not_available");
    expect(platform.requests.map((request) => request.path)).toEqual(["/api/v1/games"]);
  });

  it("allows demo mode for a game with demoAvailable", async () => {
    platform.queue(
      { status: 200, body: [game("crashGame", true)] },
      { status: 200, body: { launch_url: "u", session_token: "s" } },
    );
    const result = await launchGame(
      { baseUrl: platform.url, publicKey: "pk-7", catalog: catalog() },
      "crashGame",
      {
        userToken: "u-1",
        currency: "EUR",
        platform: "mobile",
        portalMode: "demo",
      },
    );
    expect(result.session_token).toBe("s");
  });
});
