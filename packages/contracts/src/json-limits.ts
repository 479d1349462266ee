import { limits } from "./limits.ts";

/**
 * The shape limits every callback body is read with, by the whole-body reader (`safe-json.ts`) and
 * the streaming one (`close-stream/`) alike. No body of the contract nests deeper than three levels
 * or holds an object of more than a dozen keys; the limits are far above that and bound what a
 * reader must keep per body (one key set per open object), whatever its size: an 8 MiB body of
 * `{"a":{"a":…` would otherwise hold over a million sets. A body past either limit is refused
 * whatever field it lies in (not located: a close is refused too, and stored as refused).
 */
export const jsonDepthMax = limits.jsonDepth.max;
export const jsonObjectKeysMax = limits.jsonObjectKeys.max;

export const tooDeep = `JSON nested deeper than ${jsonDepthMax} levels`;
export const tooManyKeys = `an object holds more than ${jsonObjectKeysMax} keys`;
