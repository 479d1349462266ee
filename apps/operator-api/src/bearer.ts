import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { sendError } from "./respond.ts";

/** `Authorization: Bearer <token>`, compared in constant time (hashes make the lengths equal). */
export function requireBearer(token: string) {
  const expected = createHash("sha256").update(token).digest();
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.get("authorization") ?? "";
    const given = /^Bearer (.+)$/.exec(header)?.[1] ?? "";
    const matches = timingSafeEqual(createHash("sha256").update(given).digest(), expected);
    if (!given || !matches) return sendError(res, 401, "missing or wrong bearer token");
    next();
  };
}
