import { sign } from "@wallet/contracts/hmac";
import { type CallResult, callGateway } from "@wallet/system-tests/harness/system";
import { type AuthBody, type AuthedPlayer, authedPlayer } from "../harness/authed-player.ts";
import { type FaultSystem, operatorToken, type TestTenant } from "../harness/fault-system.ts";

/** Every secret a test file sent: its logs are then searched for each one. */
export interface SentSecrets {
  signatures: Set<string>;
  userTokens: Set<string>;
  sessionTokens: Set<string>;
  bearerTokens: Set<string>;
}

/**
 * Signed callbacks, bearer headers and players with a session, all through the system `running`
 * holds (read when called), remembering in `sent` every secret they carry.
 */
export function recordingClient(running: { system: FaultSystem }) {
  const sent: SentSecrets = {
    signatures: new Set<string>(),
    userTokens: new Set<string>(),
    sessionTokens: new Set<string>(),
    bearerTokens: new Set<string>([operatorToken]),
  };

  /** A signed callback through the front proxy, as the platform sends it; the signature is remembered. */
  function call(
    path: string,
    body: unknown,
    options: { tenant: TestTenant; signature?: string; publicKey?: string },
  ): Promise<CallResult> {
    const raw = JSON.stringify(body);
    const signature = options.signature ?? sign(raw, options.tenant.secretKey);
    sent.signatures.add(signature);
    const front = running.system.front;
    if (!front) throw new Error("no front proxy");
    return callGateway({ port: front.port }, path, body, { ...options, raw, signature });
  }

  /** The Authorization header bearing `token`; the token is remembered. */
  function withToken(token: string) {
    sent.bearerTokens.add(token);
    return { authorization: `Bearer ${token}` };
  }

  /** The `/auth` body given, its user and session tokens remembered. */
  function remembered(auth: AuthBody): AuthBody {
    sent.userTokens.add(auth.user_token);
    sent.sessionTokens.add(auth.session_token);
    return auth;
  }

  /** A player with a wallet and a live session, bound through the gateway's real `/auth`. */
  function sessionPlayer(tenant: TestTenant, balance: bigint): Promise<AuthedPlayer> {
    return authedPlayer(running.system, tenant.operatorId, balance, {
      username: "security",
      send: (auth, signer) => call("/auth", remembered(auth), { tenant: signer }),
    });
  }

  return { sent, call, withToken, remembered, sessionPlayer };
}
