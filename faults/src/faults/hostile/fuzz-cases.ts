import { authRequest } from "@wallet/contracts/auth";
import { balanceRequest } from "@wallet/contracts/balance";
import { fieldsACloseIgnores, isCloseRound } from "@wallet/contracts/close-refusal";
import { sign } from "@wallet/contracts/hmac";
import { parseJsonBytesStrict } from "@wallet/contracts/safe-json";
import { depositRequest, withdrawRequest } from "@wallet/contracts/wallet-request";
import fc from "fast-check";
import { type TestTenant, testTenants } from "../../harness/fault-system.ts";
import { anyBody, type Endpoint, endpoints, sometimes } from "./fuzz-bodies.ts";
import type { RawRequest } from "./raw-http.ts";

// The fuzz's requests: a body from fuzz-bodies.ts, the headers around it, and the answer it must get.

const [tenant1, tenant2] = testTenants as [TestTenant, TestTenant];
const schemas = {
  "/auth": authRequest,
  "/withdraw": withdrawRequest,
  "/deposit": depositRequest,
  "/balance": balanceRequest,
};

/** Header values node will send: tab, visible ASCII and Latin-1 (anything else it refuses to write). */
const headerText = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
    .map((code) => String.fromCharCode(code)),
  maxLength: 64,
});
type KeyChoice = { tenant?: TestTenant; header?: string | readonly string[] };
const publicKeyChoice: fc.Arbitrary<KeyChoice> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constant({ header: "" }) },
  { weight: 1, arbitrary: headerText.map((header) => ({ header })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1_000, max: 6_000 }).map((length) => ({ header: "k".repeat(length) })),
  },
  { weight: 6, arbitrary: fc.constant({ tenant: tenant1, header: tenant1.publicKey }) },
  { weight: 2, arbitrary: fc.constant({ tenant: tenant2, header: tenant2.publicKey }) },
  { weight: 1, arbitrary: fc.constant({ tenant: tenant1, header: ` \t${tenant1.publicKey} ` }) },
  { weight: 1, arbitrary: fc.constant({ header: [tenant1.publicKey, tenant1.publicKey] }) },
  { weight: 1, arbitrary: fc.constant({ header: tenant1.publicKey.toUpperCase() }) },
);
type SignatureChoice =
  | "missing"
  | "empty"
  | "garbage"
  | "random-digest"
  | "other-bytes"
  | "these-bytes"
  | "other-tenant"
  | "hex"
  | "very-long"
  | "doubled";
const signatureChoice = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.constantFrom<SignatureChoice>("missing", "empty", "garbage", "random-digest", "hex"),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<SignatureChoice>("other-bytes", "other-tenant", "very-long", "doubled"),
  },
  { weight: 4, arbitrary: fc.constant<SignatureChoice>("these-bytes") },
);

/**
 * The gateway's strict reading (UTF-8, strict JSON): a CLOSE_ROUND on /deposit whose only flaw is
 * in a field it does not read is let through.
 */
const strictRead = (path: Endpoint, bytes: Buffer) =>
  parseJsonBytesStrict(bytes, path === "/deposit" ? { ignoredFields: fieldsACloseIgnores } : {});

/** How the gateway reads an oversized /deposit body: unreadable (400), or JSON that is or is not a close. */
function readsAs(bytes: Buffer): "unreadable" | "close" | "not a close" {
  try {
    const json = strictRead("/deposit", bytes);
    if (!json.ok) return "unreadable";
    return isCloseRound(json.value) ? "close" : "not a close";
  } catch {
    return "unreadable";
  }
}

/** Whether the gateway's own checks (UTF-8, strict JSON, the endpoint's schema) pass these bytes on. */
function passesTheGateway(path: Endpoint, bytes: Buffer): boolean {
  try {
    const json = strictRead(path, bytes);
    return json.ok && schemas[path].safeParse(json.value).success;
  } catch {
    return false; // what throws here must be a 4xx from the gateway too, not its 5xx
  }
}

export interface FuzzCase extends RawRequest {
  expected: number;
  /** A money callback that would have passed, re-signed over other bytes so it cannot write its 404. */
  demoted: boolean;
  label: string;
}

/**
 * A request as hostile as it gets, with the status the gateway must answer it with: any body, on any
 * endpoint, under any public key and signature, content type, encoding and extra headers.
 */
export function fuzzCase(bodyLimit: number): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      body: anyBody,
      path: sometimes(1 / 4, fc.constantFrom(...endpoints)),
      key: publicKeyChoice,
      signature: signatureChoice,
      garbage: fc.string({ maxLength: 16 }),
      contentType: fc.option(
        fc.oneof(fc.constantFrom("application/json", "text/plain", "multipart/form-data"), headerText),
      ),
      encoding: sometimes(1 / 12, fc.constantFrom("identity", "IDENTITY", "gzip", "br", "x-garbage")),
      traceparent: sometimes(1 / 6, headerText),
      extra: fc.dictionary(fc.stringMatching(/^x-fuzz-[a-z0-9-]{1,16}$/), headerText, { maxKeys: 3 }),
      chunked: fc.boolean(),
      randomDigest: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    })
    .map((drawn) => {
      const path = drawn.path ?? drawn.body.naturalPath ?? "/balance";
      const body = drawn.body.bytes;
      const secret = drawn.key.tenant?.secretKey ?? tenant1.secretKey;
      const otherSecret = secret === tenant1.secretKey ? tenant2.secretKey : tenant1.secretKey;
      const signatures: Record<SignatureChoice, string | string[] | undefined> = {
        missing: undefined,
        empty: "",
        garbage: drawn.garbage,
        "random-digest": Buffer.from(drawn.randomDigest).toString("base64"),
        "other-bytes": sign(Buffer.concat([body, Buffer.from(" ")]), secret),
        "these-bytes": sign(body, secret),
        "other-tenant": sign(body, otherSecret),
        hex: Buffer.from(sign(body, secret), "base64").toString("hex"),
        "very-long": sign(body, secret).repeat(100),
        doubled: [sign(body, secret), sign(body, secret)],
      };
      let signature = signatures[drawn.signature];
      const validlySigned = drawn.key.tenant !== undefined && drawn.signature === "these-bytes";
      // A money callback for an unknown player that passes every check is answered 404 by the ledger,
      // which stores that answer for its retries: a write. Such a body is sent signed over other bytes.
      const demoted =
        validlySigned && (path === "/withdraw" || path === "/deposit") && passesTheGateway(path, body);
      if (demoted) signature = signatures["other-bytes"];
      const encoding = body.length > 0 ? drawn.encoding : null;

      const headers: Record<string, string | string[]> = { ...drawn.extra };
      if (drawn.contentType !== null) headers["content-type"] = drawn.contentType;
      if (encoding !== null) headers["content-encoding"] = encoding;
      if (drawn.traceparent !== null) headers.traceparent = drawn.traceparent;
      if (drawn.key.header !== undefined) headers["x-public-key"] = [drawn.key.header].flat();
      if (signature !== undefined) headers["x-signature"] = signature;

      // The answer each gets, in the order the gateway decides: content encoding and size (body
      // parser), then the tenant and the signature, then UTF-8, JSON and schema; what passes them
      // all names an unknown player (404). A /deposit close whose only flaw is in a field it does
      // not read passes them; one refused anyway is a 400 the ledger stores in refused_closes first
      // (a table the snapshot leaves out: the fuzz's closes name rounds nobody played).
      // Past the limit, /deposit reads on for a known operator's body that names CLOSE_ROUND (a
      // close lists every bet of its round): then the usual checks decide, and a body that turns out
      // not to be a CLOSE_ROUND is a 413 after all.
      const mayBeClose =
        path === "/deposit" && drawn.key.tenant !== undefined && body.includes('"CLOSE_ROUND"');
      let expected: number;
      if (encoding !== null && encoding.toLowerCase() !== "identity") expected = 415;
      else if (body.length > bodyLimit && !mayBeClose) expected = 413;
      else if (!validlySigned || demoted) expected = 401;
      else if (passesTheGateway(path, body)) expected = 404;
      else expected = body.length > bodyLimit && readsAs(body) === "not a close" ? 413 : 400;
      const label = `${drawn.signature}${demoted ? "(demoted)" : ""} ${path} ${body.length}B`;
      return { path, headers, body, chunked: drawn.chunked, expected, demoted, label };
    });
}
