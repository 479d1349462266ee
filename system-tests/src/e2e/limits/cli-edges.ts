import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { listOperatorTokens } from "@wallet/ledger/reads/operator-tokens";
import { createOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import { expect, inject } from "vitest";
import { harnessPath } from "../../harness/env.ts";
import { repoRoot } from "../../harness/processes/launch.ts";
import type { Drive, Edges } from "./edge.ts";
import { type Answer, type EdgeWorld, pathOf } from "./edge-world.ts";

const run = promisify(execFile);

/** A CLI as production runs it (`node --import tsx` in its app): its exit code and its first line. */
async function cli(
  world: EdgeWorld,
  app: string,
  script: string,
  args: string[],
): Promise<Answer & { out: string }> {
  const env = {
    PATH: harnessPath,
    DATABASE_URL: world.system.ledger.url,
    REDIS_URL: inject("redisUrl"),
    REDIS_PREFIX: world.system.prefix,
  };
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: `${repoRoot}apps/${app}`,
      env,
    });
    return { status: 0, message: "", out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    // The refusal's reason: its first line, without the usage a CLI may add after it in parentheses.
    const first = (failed.stderr ?? "").split("\n")[0] ?? "";
    return { status: failed.code ?? -1, message: first.replace(/ \(usage: .*\)$/, ""), out: "" };
  }
}

const answerOnly = ({ status, message }: Answer): Answer => ({ status, message });
const tokens = (world: EdgeWorld, ...args: string[]) =>
  cli(world, "operator-api", "src/cli/tokens.cli.ts", args);
const sideEffects = (world: EdgeWorld, ...args: string[]) =>
  cli(world, "worker", "src/cli/side-effects.ts", args);

/** `pnpm tokens create --label`: a label at the column's limit kept as typed; one more refused (exit 2). */
export function tokenLabelEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (label) => {
      const created = await tokens(world, "create", "--operator", "1", "--scope", "read", "--label", label);
      expect(created.status).toBe(0);
      const publicId = JSON.parse(created.out).public_id as string;
      const listed = await listOperatorTokens(world.system.ledger.db, { tenantId: 1 });
      expect(listed.find((token) => token.public_id === publicId)).toMatchObject({ label });
    },
    refusals: [
      {
        entry: "pnpm tokens create --label",
        answer: { status: 2, message: "--label: must be at most 128 characters" },
        send: async (label) =>
          answerOnly(await tokens(world, "create", "--operator", "1", "--scope", "read", "--label", label)),
      },
    ],
  };
}

/** `pnpm side-effects retry --dead --round`: every round a BET takes, none past it (exit 2). */
export function retryRoundEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (round) => {
      const retried = await sideEffects(world, "retry", "--dead", "--round", round);
      expect(retried).toMatchObject({ status: 0, out: "0 dead side effect(s) handed back to the workers\n" });
    },
    refusals: [
      {
        entry: "pnpm side-effects retry --round",
        answer: { status: 2, message: "--round: must be at most 128 characters" },
        send: async (round) => answerOnly(await sideEffects(world, "retry", "--dead", "--round", round)),
      },
    ],
  };
}

/**
 * An operator token (60 characters, as minted) works; one character more is a 401; `pnpm tokens
 * revoke` takes a public id of 12 hex digits, not 13.
 */
export function operatorTokenEdges(world: EdgeWorld): Edges<string> {
  const audit = async (token: string) => {
    const response = await fetch(`http://127.0.0.1:${world.api.port}/v1/audit`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return {
      status: response.status,
      message: String(((await response.json()) as { message?: unknown }).message),
    };
  };
  let minted = { token: "", publicId: "" };
  return {
    taken: async () => {
      minted = await createOperatorToken(world.system.ledger.db, { tenantId: 1, scope: "read" });
      expect(minted.token).toHaveLength(60);
      expect((await audit(minted.token)).status).toBe(200);
      expect(await tokens(world, "revoke", minted.publicId)).toMatchObject({ status: 0 });
      expect((await audit(minted.token)).status).toBe(401);
    },
    refusals: [
      {
        entry: "Authorization: Bearer <61 characters>",
        answer: { status: 401, message: "missing or wrong bearer token" },
        send: () => audit(`${minted.token}x`),
      },
      {
        entry: "pnpm tokens revoke <13 hex digits>",
        answer: {
          status: 2,
          message: "public id: must be a token's public id, 12 hex digits (pnpm tokens list)",
        },
        send: async () => answerOnly(await tokens(world, "revoke", `${minted.publicId}0`)),
      },
    ],
  };
}

/** `/auth`'s user token: the longest minted (a user id of 64 characters of 4 bytes) taken; one more refused. */
export function userTokenEdges(world: EdgeWorld): Edges<string> {
  const auth = (userToken: string) =>
    world.callback("/auth", {
      user_token: userToken,
      session_token: `s-${userToken.slice(-8)}`,
      currency: "EUR",
    });
  let longest = "";
  return {
    taken: async () => {
      const userId = "\u{1F600}".repeat(64);
      await world.newPlayer({ user_id: userId, maxbet: 1 });
      const minted = await world.operator("POST", pathOf("/v1/players/{}/tokens", userId));
      longest = String(minted.json.user_token);
      expect(longest).toHaveLength(369);
      const answer = await auth(longest);
      expect([answer.status, answer.json.data?.user_id]).toEqual([200, userId]);
    },
    refusals: [
      {
        entry: "/auth user_token",
        answer: { status: 400, message: "user_token: must be at most 369 characters" },
        send: async () => {
          const answer = await auth(`${longest}A`);
          return { status: answer.status, message: answer.json.message };
        },
      },
    ],
  };
}

/** What the CLIs take, and the tokens: the real CLIs, the gateway's /auth and the API's bearer check. */
export const cliDrives = (world: EdgeWorld): Drive[] => [
  // A CLI process per call: one draw of each width.
  { limit: "roundId", by: "code points", edges: retryRoundEdges(world), runs: 1 },
  { limit: "tokenLabel", by: "code points", edges: tokenLabelEdges(world), runs: 1 },
  { limit: "userToken", by: "token", edges: userTokenEdges(world) },
  { limit: "operatorToken", by: "token", edges: operatorTokenEdges(world) },
  { limit: "operatorTokenPublicId", by: "token", edges: operatorTokenEdges(world) },
];
