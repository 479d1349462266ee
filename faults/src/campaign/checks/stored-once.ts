import { sign } from "@wallet/contracts/hmac";
import { recordedByProviderTx } from "@wallet/ledger/reads/acknowledgements";
import type { TestLedger } from "@wallet/ledger/testing/test-ledger";
import { testTenants } from "../../harness/fault-system.ts";
import { recordingProblem } from "../../harness/invariants.ts";
import type { SeenAnswer } from "../../harness/platform-load.ts";
import type { Operation } from "../history/operation.ts";

const money = new Set(["BET", "FREE_BET", "WIN", "FREE_BET_WIN", "ROLL_BACK", "CLOSE_ROUND"]);

/**
 * Rule 2, first half: every money callback the platform was answered (2xx or 4xx) is resent now with
 * the same bytes and signature, and must get the same status and the same bytes (a stored answer,
 * replayed; a refusal by its schema is decided the same way again); and every one acknowledged with
 * 200 is recorded once, as the kind and amount it was, with the balance it answered.
 */
export async function storedOnceProblems(
  ledger: TestLedger,
  walletUrl: string,
  history: Operation[],
  concurrency = 8,
): Promise<{ resent: number; problems: string[] }> {
  const answered = history.filter(
    (op) =>
      op.source === "platform" &&
      money.has(op.kind) &&
      op.key !== null &&
      op.status >= 200 &&
      op.status < 500,
  );
  const problems: string[] = [];
  let next = 0;
  const lane = async () => {
    for (let op = answered[next++]; op !== undefined; op = answered[next++]) {
      const again = await resend(walletUrl, op);
      if (again.status !== op.status || again.body !== op.reply)
        problems.push(
          `${op.kind} ${op.key}: answered ${op.status} ${clip(op.reply)}, resent ${again.status} ${clip(again.body)}`,
        );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));

  for (const { operatorId } of testTenants) {
    const recorded = await recordedByProviderTx(ledger.db, operatorId);
    for (const op of answered.filter((one) => one.status === 200 && one.operatorId === operatorId)) {
      const problem = recordingProblem(asSeen(op), recorded.get(op.key ?? ""));
      if (problem) problems.push(problem);
    }
  }
  return { resent: answered.length, problems };
}

async function resend(walletUrl: string, op: Operation): Promise<{ status: number; body: string }> {
  const tenant = testTenants.find((entry) => entry.operatorId === op.operatorId);
  if (!tenant) throw new Error(`no tenant ${op.operatorId}`);
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${walletUrl}${op.path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-public-key": tenant.publicKey,
          "x-signature": sign(op.request, tenant.secretKey),
        },
        body: op.request,
        signal: AbortSignal.timeout(10_000),
      });
      const body = await response.text();
      // The system is healed and idle by now, but a 503 is still only ever transient: ask again.
      if (response.status !== 503 || attempt >= 5) return { status: response.status, body };
    } catch (error) {
      if (attempt >= 5) return { status: 0, body: String(error) };
    }
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
}

/** A body in a one-line problem: its data part, where two answers differ, is what matters. */
function clip(body: string): string {
  const data = body.indexOf('"data"');
  const shown = data >= 0 ? body.slice(data) : body;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

function asSeen(op: Operation): SeenAnswer {
  return {
    label: op.kind,
    operatorId: op.operatorId,
    providerTxId: op.key,
    userId: op.userId,
    amount: op.amount,
    status: op.status,
    attempts: op.attempts,
    operatorTxId: null,
    balance: op.balance,
    roundId: op.roundId,
    path: op.path,
    request: op.request,
    reply: op.reply,
    invokedAt: op.invokedAt,
    answeredAt: op.completedAt ?? 0,
    settles: op.betKey,
  };
}
