import { parseArgs } from "node:util";
import { parseInstant } from "@wallet/contracts/instant";

/**
 * A command-line tool's arguments, read strictly: an unknown flag, a value missing or a positional
 * argument is refused with one line on stderr and exit code 2, never a stack trace, and nothing on
 * stdout (which a reader saves to a file). A tool run after an incident must not guess: `--bogus` ignored
 * or a time read wrong changes what it lists without a word.
 */
export function readArgs<const O extends Record<string, { type: "string" | "boolean" }>>(
  args: string[],
  options: O,
  usage: string,
) {
  const refuse = (problem: string): never => {
    console.error(`${problem} (${usage})`);
    process.exit(2);
  };
  let values: Partial<Record<keyof O, string | boolean>>;
  try {
    ({ values } = parseArgs({ args, options, strict: true, allowPositionals: false }) as {
      values: Partial<Record<keyof O, string | boolean>>;
    });
  } catch (error) {
    // parseArgs's own sentence, without its advice to use "--" (no positional argument is taken).
    return refuse((error as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const text = (name: keyof O & string): string | undefined => {
    const value = values[name];
    return typeof value === "string" ? value : undefined;
  };
  return {
    refuse,
    /** A string option's value, if given. */
    text,
    flag: (name: keyof O & string): boolean => values[name] === true,
    /** An option holding a moment: a full ISO 8601 date-time with its zone, or refused. */
    instant: (name: keyof O & string): Date | undefined => {
      const given = text(name);
      if (given === undefined) return undefined;
      const parsed = parseInstant(given);
      return "instant" in parsed ? parsed.instant : refuse(`--${name}: ${parsed.problem}`);
    },
  };
}
