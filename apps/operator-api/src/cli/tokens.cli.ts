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
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { operator: { type: "string" }, scope: { type: "string" }, label: { type: "string" } },
});
const [command, publicId] = positionals;
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
} finally {
  await close();
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
