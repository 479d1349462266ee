import { DATABASE_FENCED, DATABASE_SESSION } from "@wallet/ledger/mysql-errors";
import { createLogger } from "@wallet/telemetry/logger";
import { describe, expect, it } from "vitest";
import { bootStep } from "./boot-step.ts";

const logger = createLogger("boot-step-test", "silent");
const refused = (code: string) => Object.assign(new Error("refused for now"), { code });
/** A step that fails with each of `errors` in turn, then answers "served"; counts its calls. */
function failing(...errors: Error[]) {
  let calls = 0;
  const step = async () => {
    const error = errors[calls];
    calls += 1;
    if (error) throw error;
    return "served";
  };
  return { step, calls: () => calls };
}

describe("a boot step against the ledger", () => {
  it("waits out a database that refuses for now (fenced, or its session), then goes on", async () => {
    const { step, calls } = failing(refused(DATABASE_FENCED), refused(DATABASE_SESSION));
    await expect(bootStep("upsert tenant", step, logger)).resolves.toBe("served");
    expect(calls()).toBe(3);
  });

  it("looks through drizzle's wrapper to the refusal", async () => {
    const wrapped = Object.assign(new Error("Failed query"), { cause: refused(DATABASE_FENCED) });
    const { step, calls } = failing(wrapped);
    await expect(bootStep("upsert tenant", step, logger)).resolves.toBe("served");
    expect(calls()).toBe(2);
  });

  it("fails at once on any other error, and on a refusal past its wait", async () => {
    const other = failing(Object.assign(new Error("Access denied"), { errno: 1045 }));
    await expect(bootStep("upsert tenant", other.step, logger)).rejects.toThrow("Access denied");
    expect(other.calls()).toBe(1);
    const forever = failing(...Array.from({ length: 100 }, () => refused(DATABASE_FENCED)));
    await expect(bootStep("upsert tenant", forever.step, logger, 0)).rejects.toThrow("refused for now");
    expect(forever.calls()).toBe(1);
  });
});
