import { describe, expect, it } from "vitest";
import { partitionOf, serializationKey } from "./partition.ts";
import { newUserToken, userIdHint } from "./user-token.ts";

describe("partitionOf", () => {
  it("is stable: the same tenant and key always land on the same partition", () => {
    expect(partitionOf(1, "user:alice", 32)).toBe(partitionOf(1, "user:alice", 32));
    // Pinned: a change would move players to other partitions while old and new gateways both run.
    expect([
      partitionOf(1, "user:alice", 32),
      partitionOf(2, "user:alice", 32),
      partitionOf(1, "round:r-1", 32),
    ]).toEqual([8, 7, 22]);
  });

  it("spreads keys over every partition", () => {
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 8_000; i++) counts[partitionOf(1, `user:${i}`, 8)] += 1;
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });
});

describe("user tokens", () => {
  it("carry the player they were minted for as a routing hint", () => {
    const token = newUserToken("player-42");
    expect(token).toMatch(/^u\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(userIdHint(token)).toBe("player-42");
    expect(newUserToken("player-42")).not.toBe(token);
  });

  it("tokens of another shape give no hint", () => {
    for (const token of ["", "abc", "u..x", "u.!!.x", "v.cGxheWVy.x"])
      expect(userIdHint(token)).toBeUndefined();
  });
});

describe("serializationKey", () => {
  it("queues every per-player call behind the same player, /auth and adjustments included", () => {
    const player = "player-7";
    expect(serializationKey("auth", { user_token: newUserToken(player) })).toBe("user:player-7");
    expect(serializationKey("withdraw", { action: "BET", user_id: player })).toBe("user:player-7");
    expect(serializationKey("deposit", { action: "ROLL_BACK", user_id: player })).toBe("user:player-7");
    expect(serializationKey("balance", { user_id: player })).toBe("user:player-7");
    expect(serializationKey("adjust", { user_id: player, amount: 5 })).toBe("user:player-7");
  });

  it("queues CLOSE_ROUND, which has no player, by its round", () => {
    expect(serializationKey("deposit", { action: "CLOSE_ROUND", action_id: "round-9" })).toBe(
      "round:round-9",
    );
  });

  it("falls back to the token or session when no player is named", () => {
    expect(serializationKey("auth", { user_token: "foreign-token" })).toBe("token:foreign-token");
    expect(serializationKey("balance", { session_token: "s-1" })).toBe("session:s-1");
  });
});
