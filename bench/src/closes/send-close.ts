import { sign } from "@wallet/contracts/hmac";
import { round } from "../stats.ts";

export interface CloseSend {
  /** 0: timed out or no connection (resent, like a 5xx). */
  status: number;
  ms: number;
  /** When it was sent, ms since the epoch. */
  at: number;
}

export interface CloseDelivery {
  sends: CloseSend[];
  /** The send (1-based) first answered with no 5xx; null: none of the contract's sends was. */
  answeredBy: number | null;
  /** The close was stored when its first send was answered (read right after that answer). */
  storedAtFirstAnswer: boolean;
  /** …and right before the second send (null: there was none). */
  storedBeforeSecondSend: boolean | null;
  /** First send out → last answer in, ms since the epoch: the other players' window. */
  from: number;
  to: number;
}

export interface PlatformPolicy {
  resendBaseMs: number;
  maxSends: number;
  timeoutMs: number;
}

async function post(target: string, raw: Buffer, headers: Record<string, string>, timeoutMs: number) {
  const at = Date.now();
  const started = performance.now();
  let status = 0;
  try {
    const response = await fetch(`${target}/deposit`, {
      method: "POST",
      headers,
      body: raw,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    status = response.status;
  } catch {
    // a timeout or a refused connection: the platform resends it as it would a 5xx
  }
  return { status, ms: round(performance.now() - started, 1), at };
}

/**
 * The platform's delivery of one CLOSE_ROUND: sent, and after a 5xx or a timeout resent with the same
 * bytes and signature `resendBaseMs`, 2×, 4×… later, up to `maxSends` sends. Whether the close is
 * already stored is read right after the first answer and again right before the second send: a
 * version that finishes the work after its 503 has it stored there, one that drops it has not.
 */
export async function deliverClose(
  target: string,
  raw: Buffer,
  keys: { publicKey: string; secretKey: string },
  policy: PlatformPolicy,
  isStored: () => Promise<boolean>,
): Promise<CloseDelivery> {
  // Signed once: every send carries the same bytes and the same signature.
  const headers = {
    "content-type": "application/json",
    "x-public-key": keys.publicKey,
    "x-signature": sign(raw, keys.secretKey),
  };
  const sends: CloseSend[] = [];
  let storedAtFirstAnswer = false;
  let storedBeforeSecondSend: boolean | null = null;
  while (sends.length < policy.maxSends) {
    if (sends.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, policy.resendBaseMs * 2 ** (sends.length - 1)));
      if (sends.length === 1) storedBeforeSecondSend = await isStored();
    }
    const send = await post(target, raw, headers, policy.timeoutMs);
    sends.push(send);
    if (sends.length === 1) storedAtFirstAnswer = await isStored();
    if (send.status !== 0 && send.status < 500) break;
  }
  const last = sends[sends.length - 1];
  const answered = sends.findIndex((send) => send.status !== 0 && send.status < 500);
  return {
    sends,
    answeredBy: answered === -1 ? null : answered + 1,
    storedAtFirstAnswer,
    storedBeforeSecondSend,
    from: sends[0]?.at ?? Date.now(),
    to: last ? last.at + last.ms : Date.now(),
  };
}
