import { readFileSync } from "node:fs";
import { sign } from "@wallet/contracts/hmac";
import { sendEnv } from "./env.ts";

/**
 * Signs a JSON body with a tenant's secret and POSTs it, as the platform would:
 *   pnpm send-callback /withdraw '{"action":"BET", ...}'      (or @file.json, or - for stdin)
 * WALLET_URL, PUBLIC_KEY and SECRET_KEY default to the local gateway and the dev tenant.
 * The body is sent byte for byte as given, so its signature is over exactly those bytes.
 */
const [path, source] = process.argv.slice(2);
if (!path || !source || !path.startsWith("/")) {
  console.error("usage: send-callback </auth|/withdraw|/deposit|/balance> <json | @file.json | ->");
  process.exit(2);
}
const body =
  source === "-"
    ? readFileSync(0, "utf8")
    : source.startsWith("@")
      ? readFileSync(source.slice(1), "utf8")
      : source;
const signature = sign(body, sendEnv.SECRET_KEY);
const url = new URL(path, sendEnv.WALLET_URL);
console.error(`POST ${url} (X-Public-Key: ${sendEnv.PUBLIC_KEY}, X-Signature: ${signature})`);
const response = await fetch(url, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    "x-public-key": sendEnv.PUBLIC_KEY,
    "x-signature": signature,
  },
  body,
});
console.error(`HTTP ${response.status}`);
console.log(await response.text());
process.exitCode = response.ok ? 0 : 1;
