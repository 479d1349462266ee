import { describe, expect, it } from "vitest";
import { partitionOf } from "./partition.ts";
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
