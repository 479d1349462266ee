import { createHmac } from "node:crypto";
import { sign } from "@wallet/contracts/hmac";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import { describe, expect, it } from "vitest";
import { authedPlayer, callGateway, testTenants, useRunningSystem } from "../harness/system.ts";

const running = useRunningSystem();
const system = running.system;

describe("X-Signature", () => {
  it("every bad shape is a 401, never a 500, and nothing is written", async () => {
    const player = await authedPlayer(system, running.gateway, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000 });
    const raw = JSON.stringify(bet);
    const good = sign(raw, "secret-key-1");
    const otherTenant = testTenants[1]?.secretKey ?? "";
    const shapes: Array<[string, string | null]> = [
      ["missing", null],
      ["empty", ""],
      ["not Base64", "%%%not*base64%%%"],
      ["too short", good.slice(0, 20)],
      ["too long", `${good}AAAA`],
      ["hex instead of Base64", createHmac("sha256", "secret-key-1").update(raw).digest("hex")],
      ["SHA-512", createHmac("sha512", "secret-key-1").update(raw).digest("base64")],
      ["another tenant's secret", sign(raw, otherTenant)],
      ["over re-serialized JSON", sign(JSON.stringify(bet, null, 2), "secret-key-1")],
      ["over another body", sign(JSON.stringify({ ...bet, amount: 1 }), "secret-key-1")],
      ["with whitespace inside", `${good.slice(0, 10)} ${good.slice(10)}`],
    ];
    for (const [name, signature] of shapes) {
      const answer = await callGateway(running.gateway, "/withdraw", bet, { raw, signature });
      expect({ name, status: answer.status, body: answer.json }).toEqual({
        name,
        status: 401,
        body: { code: 401, message: "invalid or missing X-Signature" },
      });
    }
    expect(await countRows(system.ledger, "idempotency_records", bet.provider_tx_id as string)).toBe(0);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(10_000n);
    // The genuine signature over the same bytes is accepted.
    const accepted = await callGateway(running.gateway, "/withdraw", bet, { raw, signature: good });
    expect(accepted.status).toBe(200);
  });

  it("a signature made with tenant 2's secret under tenant 1's public key is a 401", async () => {
    const answer = await callGateway(
      running.gateway,
      "/balance",
      { user_id: "x" },
      { tenant: testTenants[1], publicKey: "public-key-1" },
    );
    expect(answer.status).toBe(401);
  });

  it("is checked on every callback endpoint, before the body is even parsed", async () => {
    for (const path of ["/auth", "/withdraw", "/deposit", "/balance"]) {
      const answer = await callGateway(running.gateway, path, undefined, {
        raw: "{not json",
        signature: "AAAA",
      });
      expect([path, answer.status]).toEqual([path, 401]);
    }
  });
});
