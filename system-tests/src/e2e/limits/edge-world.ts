import { randomUUID } from "node:crypto";
import { txId } from "@wallet/ledger/testing/callback-bodies";
import { tenantMoves } from "@wallet/ledger/testing/tenant-reads";
import { expect } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  type CallResult,
  callGateway,
  type TestSystem,
} from "../../harness/system.ts";

/** What an entry point answered, as a limit's refusal is judged: the status and the message. */
export interface Answer {
  status: number;
  message: string;
}

export type Player = Awaited<ReturnType<typeof authedPlayer>>;

/** An operator API answer: its status and its JSON (undefined when there is none). */
export interface ApiAnswer {
  status: number;
  json: Record<string, unknown>;
}

/**
 * The running system the limits are driven through (worker, gateway, operator API, platform
 * simulator), and what every edge needs of it: signed callbacks, operator API calls (JSON or exact
 * bytes), players with a live session, and what a refusal must leave as it was.
 */
export class EdgeWorld {
  constructor(
    readonly system: TestSystem,
    readonly gateway: AppProcess,
    readonly api: AppProcess,
  ) {}

  callback(path: string, body: unknown, raw?: string): Promise<CallResult> {
    return callGateway(this.gateway, path, body, raw === undefined ? {} : { raw });
  }

  /** An operator API call with the development token; `raw` sends these exact bytes as the body. */
  async operator(method: string, path: string, body?: unknown, raw?: string): Promise<ApiAnswer> {
    const separator = path.includes("?") ? "&" : "?";
    const response = await fetch(`http://127.0.0.1:${this.api.port}${path}${separator}operatorId=1`, {
      method,
      headers: { authorization: "Bearer test-operator-token", "content-type": "application/json" },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** A refused close's body as `GET /v1/refused-closes/{id}/body` sends it. */
  async refusedBody(id: number): Promise<Buffer> {
    const response = await fetch(
      `http://127.0.0.1:${this.api.port}/v1/refused-closes/${id}/body?operatorId=1`,
      {
        headers: { authorization: "Bearer test-operator-token" },
      },
    );
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  /** A player with a live session (through the gateway's real /auth) and room to bet. */
  player(balance = 1_000_000_000n, maxbet = 1_000_000_000n): Promise<Player> {
    return authedPlayer(this.system, this.gateway, { balance, maxbet });
  }

  /** A player any refusal may name (made before anything is counted: `moves`). */
  someone(): Promise<Player> {
    this.anyone ??= this.player();
    return this.anyone;
  }
  private anyone: Promise<Player> | undefined;

  /** Free bets for the player, on any game. */
  async grantFreeBets(player: Player, count = 1): Promise<void> {
    const granted = await this.operator(
      "POST",
      `/v1/players/${encodeURIComponent(player.userId)}/free-bets`,
      {
        count,
      },
    );
    expect(granted.status).toBe(201);
  }

  /** A player made through `POST /v1/players` (10,000 millis, unless `over` says otherwise): its id. */
  async newPlayer(over: Record<string, unknown> = {}): Promise<string> {
    const created = await this.operator("POST", "/v1/players", {
      username: "limits",
      currency: "EUR",
      balance: 10_000,
      maxbet: 10_000,
      ...over,
    });
    expect(created.status).toBe(201);
    return String(created.json.user_id);
  }

  /** A manual close of `round`: one stake of 1,000 lost on crashGame, unless `over` says otherwise. */
  manualClose(round: string, over: Record<string, unknown> = {}): Promise<ApiAnswer> {
    return this.operator("POST", pathOf("/v1/rounds/{}/close", round), {
      crashGameCashOutCoefficients: [0],
      crashGameBets: [1_000],
      game: "crashGame",
      ...over,
    });
  }

  /** What a refusal must leave as it was (operator 1's rows, balances and free bets left). */
  moves() {
    return tenantMoves(this.system.ledger, 1);
  }

  /** The newest stored refused close that `match` picks, as the operator API lists it. */
  async refusedClose(match: (row: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const { json } = await this.operator("GET", "/v1/refused-closes?include_resolved=true&limit=200");
    const row = (json.refused_closes as Array<Record<string, unknown>>).find(match);
    if (!row) throw new Error("no such refused close is listed");
    return row;
  }
}

export const answerOf = (result: { status: number; json: { message?: unknown } }): Answer => ({
  status: result.status,
  message: String(result.json.message),
});

/** A fresh ASCII id for the fields an edge does not drive. */
export const freshId = (prefix: string) => txId(`${prefix}-${randomUUID().slice(0, 4)}`);

/** `path` with each `{}` filled by the next id, encoded as one path segment. */
export const pathOf = (template: string, ...ids: string[]) => {
  let index = 0;
  return template.replace(/\{\}/g, () => encodeURIComponent(ids[index++] ?? ""));
};

/** `body` with a top-level field no rule reads, padded so the whole is exactly `bytes` bytes of UTF-8. */
export function paddedTo(
  body: Record<string, unknown>,
  bytes: number,
  fill: (bytes: number) => string,
): string {
  const bare = JSON.stringify({ ...body, padding: "" });
  const room = bytes - Buffer.byteLength(bare);
  if (room < 0) throw new Error(`the body is already ${Buffer.byteLength(bare)} bytes`);
  const raw = JSON.stringify({ ...body, padding: fill(room) });
  expect(Buffer.byteLength(raw)).toBe(bytes);
  return raw;
}
