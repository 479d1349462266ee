import { callbackCatalog } from "@wallet/contracts/callback-catalog";
import { closeRoundAck } from "@wallet/contracts/envelope";
import { stringifyJson } from "@wallet/contracts/json";
import { isIdWithin, limits } from "@wallet/contracts/limits";
import { manualCloseRequest } from "@wallet/contracts/operator-api";
import { describeIssues } from "@wallet/contracts/validation";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { recordManualClose } from "@wallet/ledger/verbs/refused-closes";
import { z } from "zod";
import { principalOf } from "../bearer.ts";
import { ledgerAnswer } from "../ledger-answer.ts";
import { tenantOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";
import { validated } from "../validate.ts";
import { differsFromClosed, firstClose } from "./close-answer.ts";
import { roundPath } from "./shapes.ts";

const request = { params: roundPath, body: manualCloseRequest };
const closed = z.object({
  round_id: z.string(),
  provider_tx_id: z.string(),
  replayed: z.boolean().meta({ description: "a second call, or one after the platform's own close" }),
  differs_from_first: z.boolean().meta({ description: "its arrays were not those applied" }),
  refused_closes_resolved: z.int(),
  close: closeRoundAck.meta({ description: "the first close's answer" }),
});

/**
 * `POST /v1/rounds/:round_id/close`: a corrected CLOSE_ROUND, applied the way the platform's would
 * have been (same partition, same ledger code; key `{round_id}-{operator_id}-manual`), so its side
 * effects run once. A round closes once: a second call answers the first close. Every answered call
 * is audited in `operator_actions`.
 */
export const closeRoundRoute: OperatorRoute = {
  method: "post",
  path: "/v1/rounds/:round_id/close",
  summary:
    "Apply a corrected CLOSE_ROUND for a round whose platform close was refused: its side effects run once. A round closes once: a second call (or one after the platform's own close), whatever arrays it carries, answers 200 with the first close (replayed: true) and applies nothing; differs_from_first: true says its arrays differ from those the round was closed with, so they were not applied. Every call answered is audited. The body may weigh CLOSE_ROUND_BODY_LIMIT_BYTES (8 MiB unless configured), like the platform's CLOSE_ROUND",
  request,
  // A close lists every bet of its round: the gateway's CLOSE_ROUND size, not 64 KiB.
  bodyLimitBytes: (deps) => deps.closeRoundBodyLimitBytes,
  responses: {
    200: { description: "the round's first close", schema: closed },
    400: "a round_id past its limit, invalid arrays (nothing stored), or no game known for the round",
    413: "body above CLOSE_ROUND_BODY_LIMIT_BYTES",
    503: "the ledger did not answer in time; retry",
  },
  async handler(req, res, deps) {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    // Within its limit (`checkedPath`, from `roundPath`): every round a BET opened, counted in code
    // points; JS `.length` refused a round of 65 emoji whose refused close nobody could then resolve.
    const roundId = pathParam(req, "round_id");
    const body = validated(res, request.body, req.body);
    if (!body) return;
    const game = body.game ?? (await roundStatus({ ctx: deps.ctx, input: { tenantId, roundId } }))?.game;
    if (!game)
      return sendError(res, "BAD_REQUEST", "game: is required (no bet or close of this round is known)");

    // A key of its own, not the platform's: a platform close arriving later, under the contract's
    // key, is then a second close of the round and answered 200 with this one's answer (under the
    // same key with other bytes it would get a 409). At most 152 code points: within a close key's limit.
    const providerTxId = `${roundId}-${tenantId}-manual`;
    if (!isIdWithin(limits.closeTxId, providerTxId)) throw new Error("close key past its limit");
    const close = {
      action: "CLOSE_ROUND",
      amount: 0,
      provider: "operator-api",
      provider_tx_id: providerTxId,
      game,
      action_id: roundId,
      attributes: [
        { name: "crashGameCashOutCoefficients", value: body.crashGameCashOutCoefficients },
        { name: "crashGameBets", value: body.crashGameBets },
      ],
    };
    // Checked here, so an SRE's typo is answered at once and never stored as a platform refusal.
    const checked = callbackCatalog.deposit.request.safeParse(close);
    if (!checked.success) return sendError(res, "BAD_REQUEST", describeIssues(checked.error));

    // Behind the round, like the platform's own close of it: the two never run side by side.
    const answer = await ledgerAnswer(
      res,
      deps,
      { op: "deposit", tenantId, body: close, rawBody: stringifyJson(close) },
      { retry: "retry (a round closes once)", accept: firstClose },
    );
    if (!answer) return;
    const { value: first, replayed } = answer;
    // A replay answers the round's first close, whatever this call sent: say whether what it sent
    // differs from what was applied, so an SRE never takes a replay for their arrays applied.
    const differsFromFirst =
      replayed && checked.data.action === "CLOSE_ROUND"
        ? await differsFromClosed(deps.ctx, tenantId, roundId, checked.data.attributes)
        : false;
    // Every answered attempt is audited, a replay too: it is a write a token tried.
    const { resolved } = await recordManualClose(deps.ctx.db, {
      tenantId,
      roundId,
      actor: principalOf(res).actor,
      detail: {
        provider_tx_id: providerTxId,
        replayed,
        differs_from_first: differsFromFirst,
        request: body,
        answer: first,
      },
    });
    sendJson(res, 200, {
      round_id: roundId,
      provider_tx_id: providerTxId,
      // A round closes once: a second call (or a close the platform sent meanwhile) answers the first.
      replayed,
      differs_from_first: differsFromFirst,
      refused_closes_resolved: resolved,
      close: first.data,
    });
  },
};
