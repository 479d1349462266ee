import { parseArgs } from "node:util";
import { argumentProblem, cliArguments } from "@wallet/contracts/cli-arguments";
import { createDatabase } from "@wallet/ledger/db";
import { listOperatorTokens } from "@wallet/ledger/reads/operator-tokens";
import { tokenScopes } from "@wallet/ledger/schema/operator-api-tokens";
import { createOperatorToken, revokeOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import { tokensCliEnv } from "./env.ts";

const usage = `usage:
  pnpm tokens create --operator <id> --scope read|write [--label <text>]   prints the token once
  pnpm tokens list [--operator <id>]
  pnpm tokens revoke <public id>`;

/**
 * Operator-API tokens, one operator each: create (the token is printed this once; only its hash is
 * kept), list, revoke. A rotation: create the new token, move the clients to it, revoke the old one.
 */
let parsed: { positionals: string[]; values: { operator?: string; scope?: string; label?: string } };
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { operator: { type: "string" }, scope: { type: "string" }, label: { type: "string" } },
  });
} catch (error) {
  // An unknown flag or a missing value: one line and the usage, exit 2, never a stack trace.
  fail(`${(error as Error).message.replace(/\. To specify a positional argument.*$/s, "")}\n${usage}`);
}
const { positionals, values } = parsed;
const [command, publicId, ...extra] = positionals;
const unexpected = command === "revoke" ? extra[0] : (publicId ?? extra[0]);
if (unexpected !== undefined) fail(`unexpected argument "${unexpected}"\n${usage}`);
// Checked before the database is opened: a label past its column's 128 characters failed the insert.
const problem =
  argumentProblem("--operator", cliArguments.operator, values.operator) ??
  argumentProblem("--label", cliArguments.label, values.label) ??
  (command === "revoke" ? argumentProblem("public id", cliArguments.publicId, publicId) : undefined);
if (problem) fail(problem);
const operator = values.operator === undefined ? undefined : Number(values.operator);

const { db, close } = createDatabase({ url: tokensCliEnv.DATABASE_URL, poolSize: 1 });
try {
  switch (command) {
    case "create": {
      const scope = tokenScopes.find((known) => known === values.scope);
      if (operator === undefined || !scope) fail("create needs --operator <id> and --scope read|write");
      const { token, publicId: id } = await createOperatorToken(db, {
        tenantId: operator,
        scope,
        label: values.label,
      });
      console.log(JSON.stringify({ token, public_id: id, operator_id: operator, scope }));
      break;
    }
    case "list":
      for (const token of await listOperatorTokens(db, { tenantId: operator }))
        console.log(JSON.stringify(token));
      break;
    case "revoke":
      if (!publicId) fail("revoke needs the token's public id (pnpm tokens list)");
      if (!(await revokeOperatorToken(db, publicId))) fail(`no live token ${publicId}`);
      console.log(JSON.stringify({ revoked: publicId }));
      break;
    default:
      fail(usage);
  }
} catch (error) {
  // The database unreachable or not migrated: one line saying so, exit 1, never a stack trace.
  const cause = (error as { cause?: unknown }).cause;
  process.stderr.write(
    `tokens: the database at ${new URL(tokensCliEnv.DATABASE_URL).host} answered: ${cause instanceof Error ? cause.message : (error as Error).message}\n`,
  );
  process.exitCode = 1;
} finally {
  await close();
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
