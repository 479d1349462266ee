import { beforeAll, describe, expect, it } from "vitest";
import { runDocBlockOk } from "../docs/doc-blocks.ts";
import { type AppProcess, operatorCall, operatorGet, useTestSystem } from "../harness/system.ts";

/**
 * docs/runbook.md: "A token suspected leaked: revoke it first (the next call with it is a 401)". Two
 * operator API processes serve a write token in a loop (reads and adjustments, which move money);
 * `pnpm tokens revoke`, the real CLI in a process of its own run as apps/operator-api/README.md writes it, revokes it; every request either
 * process begins once the CLI has returned is a 401, the very first one included, and the money moved
 * is exactly what the 201s said.
 */
const system = useTestSystem();
let apis: AppProcess[] = [];
beforeAll(async () => {
  await system.startWorker();
  apis = await Promise.all([system.startOperatorApi(), system.startOperatorApi()]);
}, 60_000);

/** The operator API README's token blocks, run as written: each line of output one JSON value. */
const tokensBlock = async (ref: string, env: Record<string, string>) =>
  (await runDocBlockOk(ref, { env: { DATABASE_URL: system.ledger.url, ...env } })).stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, string>);

interface Sent {
  api: number;
  method: string;
  startedAt: number;
  status: number;
}

describe("a revoked operator token", () => {
  it("is refused (401) by every process from the first request begun after `pnpm tokens revoke` returned; nothing after it moves money", async () => {
    const created = await operatorCall(apis[0] as AppProcess, "POST", "/v1/players?operatorId=1", {
      username: "revocation",
      currency: "EUR",
      balance: 10_000,
      maxbet: 1_000,
    });
    expect(created.status).toBe(201);
    const userId = created.json.user_id as string;
    const [minted, ...listed] = await tokensBlock("apps/operator-api/README.md#tokens-create", {
      OPERATOR_ID: "1",
    });
    const { token, public_id: publicId } = minted ?? {};
    expect(token).toMatch(/^wop_[0-9a-f]{12}_/);
    // The list names the new token by its public id, live, and never shows a secret.
    expect(listed).toContainEqual(
      expect.objectContaining({ public_id: publicId, scope: "write", label: "cashier" }),
    );
    expect(JSON.stringify(listed)).not.toContain(token);
    const player = `/v1/players/${encodeURIComponent(userId)}`;

    const sent: Sent[] = [];
    let revokedAt = Number.POSITIVE_INFINITY;
    let reference = 0;
    const afterRevoke = (index: number) =>
      sent.filter((call) => call.api === index && call.startedAt > revokedAt).length;
    // Each process in a loop of its own: a read, then a credit of 1 milli under a new reference.
    const loop = async (index: number) => {
      const api = apis[index] as AppProcess;
      while (afterRevoke(index) < 6) {
        for (const method of ["GET", "POST"]) {
          reference += 1;
          const startedAt = performance.now();
          const response = await fetch(
            `http://127.0.0.1:${api.port}${player}${method === "POST" ? "/adjustments" : ""}`,
            {
              method,
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
              body:
                method === "POST"
                  ? JSON.stringify({ amount: 1, reason: "loop", reference: `r-${reference}` })
                  : undefined,
            },
          );
          await response.arrayBuffer();
          sent.push({ api: index, method, startedAt, status: response.status });
        }
      }
    };
    const loops = Promise.all(apis.map((_, index) => loop(index)));
    // Let both loops be served for a while, then revoke from another process.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      await tokensBlock("apps/operator-api/README.md#tokens-revoke", { PUBLIC_ID: publicId ?? "" }),
    ).toEqual([{ revoked: publicId }]);
    revokedAt = performance.now();
    await loops;

    for (const index of apis.keys()) {
      const mine = sent.filter((call) => call.api === index);
      const before = mine.filter((call) => call.startedAt <= revokedAt);
      const after = mine.filter((call) => call.startedAt > revokedAt);
      // Served before (a request in flight at the revoke may go either way), refused after, from the first.
      expect(before.filter((call) => call.status !== 401).length).toBeGreaterThan(4);
      expect(before.every((call) => [200, 201, 401].includes(call.status))).toBe(true);
      expect(after.length).toBeGreaterThanOrEqual(6);
      expect(after.map((call) => call.status)).toEqual(after.map(() => 401));
    }
    // The money moved is what the 201s said: one milli each, all journalled, none after the revoke.
    const credited = sent.filter((call) => call.method === "POST" && call.status === 201).length;
    const { json: after } = await operatorGet(apis[1] as AppProcess, `${player}?operatorId=1`);
    expect(after.balance).toBe(10_000 + credited);
    // Every page of the journal: a slow machine credits more than one page (200) before the revoke.
    const items: Array<{ kind: string; amount: number }> = [];
    for (let cursor: string | null = ""; cursor !== null; ) {
      const { json: journal } = await operatorGet(
        apis[0] as AppProcess,
        `${player}/transactions?operatorId=1&limit=200${cursor ? `&cursor=${cursor}` : ""}`,
      );
      items.push(...(journal.items as typeof items));
      cursor = journal.next_cursor as string | null;
    }
    expect(items.filter((item) => item.kind === "ADJUSTMENT").map((item) => item.amount)).toEqual(
      Array(credited).fill(1),
    );
  }, 60_000);
});
