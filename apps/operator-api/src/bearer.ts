import { createHash, timingSafeEqual } from "node:crypto";
import { type OperatorPrincipal, operatorTokenPattern } from "@wallet/ledger/verbs/operator-tokens";
import type { NextFunction, Request, Response } from "express";
import { sendError } from "./respond.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/**
 * `Authorization: Bearer <token>`: `OPERATOR_API_TOKEN` (the dev default and the demo's; it acts for
 * every operator, compared in constant time: hashes make the lengths equal), or a token of one
 * operator (`pnpm tokens create`, of its shape: `limits.ts`), found by its hash. Anything else is a 401. A read token may only
 * read (403 on a write: its own operator's data, so nothing about others is told). The caller is kept
 * in `res.locals.principal` for the routes (`operatorOf`) and the audit trail.
 */
export function authenticateOperator(
  envToken: string,
  findToken: (token: string) => Promise<OperatorPrincipal | undefined>,
) {
  const expected = sha256(envToken);
  return (req: Request, res: Response, next: NextFunction) => {
    const given = /^Bearer (.+)$/.exec(req.get("authorization") ?? "")?.[1] ?? "";
    if (given && timingSafeEqual(sha256(given), expected)) {
      res.locals.principal = { scope: "write", actor: "OPERATOR_API_TOKEN" } satisfies OperatorPrincipal;
      return next();
    }
    // Only what `pnpm tokens create` mints is looked up: a header of any other shape costs no read.
    const found = operatorTokenPattern.test(given) ? findToken(given) : Promise.resolve(undefined);
    found.then((principal) => {
      if (!principal) return sendError(res, "UNAUTHENTICATED", "missing or wrong bearer token");
      if (principal.scope === "read" && req.method !== "GET" && req.method !== "HEAD")
        return sendError(res, "FORBIDDEN", "this token may only read");
      res.locals.principal = principal;
      next();
    }, next);
  };
}

/** The authenticated caller of this request (set by `authenticateOperator`). */
export function principalOf(res: Response): OperatorPrincipal {
  return res.locals.principal as OperatorPrincipal;
}
