import { sign } from "@wallet/contracts/hmac";
import type { FaultSystem } from "../../harness/fault-system.ts";
import { testTenants } from "../../harness/fault-system.ts";
import type { SeenAnswer } from "../../harness/platform-load.ts";

/**
 * Resends every callback the platform was answered 200 for, the same bytes and signature, and lists
 * each whose answer is not byte for byte the one the platform kept: after a failover the new primary
 * must answer a resend as the old one did (`idempotency_records` replicated with the money).
 */
export async function resendAcknowledged(
  system: FaultSystem,
  answers: SeenAnswer[],
  concurrency = 8,
): Promise<{ resent: number; differing: string[] }> {
  const acknowledged = answers.filter((answer) => answer.status === 200 && answer.providerTxId !== null);
  const differing: string[] = [];
  let next = 0;
  const lane = async () => {
    for (let answer = acknowledged[next++]; answer !== undefined; answer = acknowledged[next++]) {
      const again = await resend(system, answer);
      if (again.status !== 200 || again.body !== answer.reply)
        differing.push(
          `${answer.label} ${answer.providerTxId}: was ${answer.reply}, now ${again.status} ${again.body}`,
        );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { resent: acknowledged.length, differing };
}

async function resend(system: FaultSystem, answer: SeenAnswer): Promise<{ status: number; body: string }> {
  const tenant = testTenants.find((entry) => entry.operatorId === answer.operatorId);
  if (!tenant) throw new Error(`no tenant ${answer.operatorId}`);
  const response = await fetch(`${system.walletUrl}${answer.path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-public-key": tenant.publicKey,
      "x-signature": sign(answer.request, tenant.secretKey),
    },
    body: answer.request,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.text() };
}
