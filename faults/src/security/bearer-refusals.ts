/**
 * Authorization headers the operator API must refuse, each with what it is: none, a wrong token, the
 * token off by one character at either end or in length, no token, and the token under another scheme
 * or none. `bearer` builds `Bearer <token>` (and may remember the token).
 */
export function bearerRefusals(
  operatorToken: string,
  bearer: (token: string) => Record<string, string>,
): Array<[string, Record<string, string>]> {
  const last = operatorToken.at(-1) === "x" ? "y" : "x";
  const first = operatorToken.startsWith("x") ? "y" : "x";
  return [
    ["no Authorization header", {}],
    ["a wrong token", bearer("wrong-operator-token-0000")],
    ["the token with its last character changed", bearer(`${operatorToken.slice(0, -1)}${last}`)],
    ["the token with its first character changed", bearer(`${first}${operatorToken.slice(1)}`)],
    ["the token one character longer", bearer(`${operatorToken}x`)],
    ["the token one character shorter", bearer(operatorToken.slice(0, -1))],
    ["Bearer with no token", { authorization: "Bearer" }],
    ["Bearer and a blank", { authorization: "Bearer  " }],
    ["the token under the Basic scheme", { authorization: `Basic ${operatorToken}` }],
    [
      "Basic credentials holding the token",
      { authorization: `Basic ${Buffer.from(`operator:${operatorToken}`).toString("base64")}` },
    ],
    ["the bare token with no scheme", { authorization: operatorToken }],
  ];
}
