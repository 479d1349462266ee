import { newUserToken } from "@wallet/contracts/user-token";
import { describe, expect, it } from "vitest";
import { serializationKey } from "./routing.ts";

describe("serializationKey", () => {
  it("queues every per-player callback behind the same player, /auth included", () => {
    const player = "player-7";
    expect(serializationKey("auth", { user_token: newUserToken(player) })).toBe("user:player-7");
    expect(serializationKey("withdraw", { action: "BET", user_id: player })).toBe("user:player-7");
    expect(serializationKey("deposit", { action: "ROLL_BACK", user_id: player })).toBe("user:player-7");
    expect(serializationKey("balance", { user_id: player })).toBe("user:player-7");
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
