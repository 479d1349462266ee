import { userIdMax } from "../user-token.ts";

const codePoints = (count: number, first: number) =>
  Array.from({ length: count }, (_, index) => String.fromCodePoint(first + index)).join("");

/** A woman technologist: 3 code points (two emoji joined by U+200D), 11 UTF-8 bytes, 5 UTF-16 units. */
const technologist = "\u{1F469}\u200D\u{1F4BB}";

/**
 * The longest `user_id` of each UTF-8 width (userIdMax code points each) and a mix of them, for the
 * tests that every id the API accepts can be minted a token, launched and authenticated.
 */
export const longestUserIds: Record<string, string> = {
  "1-byte (ASCII)": "a".repeat(userIdMax),
  "2-byte (Latin-1 é)": "é".repeat(userIdMax),
  "3-byte (CJK 中)": "中".repeat(userIdMax),
  "4-byte (CJK Extension B from U+20000)": codePoints(userIdMax, 0x2_0000),
  "4-byte (emoji from U+1F600)": codePoints(userIdMax, 0x1_f600),
  "mixed, with emoji and a ZWJ sequence": `${"aé中\u{20001}😀".repeat(12)}${technologist}!`,
};

/** One code point past the bound, of 4 bytes each: 65 characters, 130 UTF-16 units. */
export const overlongUserId = "😀".repeat(userIdMax + 1);
