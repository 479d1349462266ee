import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import { z } from "zod";

/**
 * The floor (`pnpm bench`): the least any signed-callback wallet in Node must spend. Express, the
 * raw body, the HMAC check, JSON in and a JSON answer out; no storage at all. Every other figure
 * is printed as a multiple of this one.
 */
const env = z
  .object({
    FLOOR_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
    PUBLIC_KEY: z.string().min(1),
    SECRET_KEY: z.string().min(1),
  })
  .parse(process.env);

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
app.use(express.raw({ type: () => true, limit: 64 * 1024 }));
app.post(["/withdraw", "/deposit", "/balance"], (req, res) => {
  const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const given = Buffer.from(req.get("x-signature") ?? "", "base64");
  const expected = createHmac("sha256", env.SECRET_KEY).update(raw).digest();
  const type = "application/json";
  if (
    req.get("x-public-key") !== env.PUBLIC_KEY ||
    given.length !== 32 ||
    !timingSafeEqual(given, expected)
  ) {
    res.status(401).type(type).send('{"code":401,"message":"invalid signature"}');
    return;
  }
  const body = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
  const data = {
    user_id: body.user_id,
    operator_tx_id: randomUUID(),
    provider_tx_id: body.provider_tx_id,
    new_balance: 0,
    currency: body.currency,
  };
  res
    .status(200)
    .type(type)
    .send(JSON.stringify({ code: 200, message: "OK", data }));
});

const server = app.listen(env.FLOOR_PORT, () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ msg: "floor listening", port }));
});
server.keepAliveTimeout = 5_000;
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
