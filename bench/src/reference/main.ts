import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import mysql from "mysql2/promise";
import { z } from "zod";
import { balanceOf, type Transfer, transfer } from "./wallet.ts";

/**
 * The reference wallet (`pnpm bench`): one Express process and a mysql2 pool, written plainly and
 * for speed, as an operator without a queue would. It shares no code with the product: only the
 * wire contract (bench/README.md, "the reference wallet").
 */
const env = z
  .object({
    REFERENCE_DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet_reference"),
    REFERENCE_POOL_SIZE: z.coerce.number().int().min(1).default(16),
    REFERENCE_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
    PUBLIC_KEY: z.string().min(1),
    SECRET_KEY: z.string().min(1),
  })
  .parse(process.env);
const pool = mysql.createPool({
  uri: env.REFERENCE_DATABASE_URL,
  connectionLimit: env.REFERENCE_POOL_SIZE,
  supportBigNumbers: true,
  bigNumberStrings: true,
});
const secret = env.SECRET_KEY;

function signed(req: Request): Buffer | undefined {
  const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (req.get("x-public-key") !== env.PUBLIC_KEY) return undefined;
  const given = Buffer.from(req.get("x-signature") ?? "", "base64");
  const expected = createHmac("sha256", secret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? raw : undefined;
}

const reply = (res: Response, status: number, body: string): void => {
  res.status(status).type("application/json").send(body);
};
const refuse = (res: Response, status: number, message: string): void =>
  reply(res, status, JSON.stringify({ code: status, message }));

const actions = { "/withdraw": ["BET"], "/deposit": ["WIN", "ROLL_BACK", "CLOSE_ROUND"] } as const;

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
app.use(express.raw({ type: () => true, limit: 64 * 1024 }));
app.post(["/withdraw", "/deposit"], async (req, res) => {
  const raw = signed(req);
  if (!raw) return refuse(res, 401, "invalid signature or public key");
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return refuse(res, 400, "body is not JSON");
  }
  const allowed: readonly string[] = actions[req.path as keyof typeof actions];
  const action = String(body.action);
  if (!allowed.includes(action)) return refuse(res, 400, `action ${action} is not handled here`);
  if (
    typeof body.provider_tx_id !== "string" ||
    !Number.isSafeInteger(body.amount) ||
    Number(body.amount) < 0
  )
    return refuse(res, 400, "provider_tx_id and a non-negative integer amount are required");
  if (action !== "CLOSE_ROUND" && (typeof body.user_id !== "string" || typeof body.currency !== "string"))
    return refuse(res, 400, "user_id and currency are required");
  if (action === "ROLL_BACK" && typeof body.withdraw_provider_tx_id !== "string")
    return refuse(res, 400, "withdraw_provider_tx_id is required");
  const request: Transfer = {
    action: action as Transfer["action"],
    userId: String(body.user_id ?? ""),
    currency: String(body.currency ?? ""),
    amount: BigInt(body.amount as number),
    providerTxId: body.provider_tx_id,
    betTxId: typeof body.withdraw_provider_tx_id === "string" ? body.withdraw_provider_tx_id : undefined,
    bodySha256: createHash("sha256").update(raw).digest("hex"),
  };
  try {
    const answer = await transfer(pool, request);
    reply(res, answer.status, answer.body);
  } catch (error) {
    console.error(error);
    refuse(res, 503, "temporarily unavailable; retry");
  }
});
app.post("/balance", async (req, res) => {
  const raw = signed(req);
  if (!raw) return refuse(res, 401, "invalid signature or public key");
  const body = JSON.parse(raw.toString("utf8")) as { user_id?: unknown };
  if (typeof body.user_id !== "string") return refuse(res, 400, "user_id is required");
  const answer = await balanceOf(pool, body.user_id);
  reply(res, answer.status, answer.body);
});

const server = app.listen(env.REFERENCE_PORT, () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ msg: "reference wallet listening", port }));
});
server.keepAliveTimeout = 5_000;
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
