import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { schemaFiles } from "./json-schemas.ts";
import { roundReportEventId } from "./side-effects.ts";

const folder = new URL("../../../docs/schemas/", import.meta.url);

describe("published JSON Schemas (docs/schemas)", () => {
  it("are exactly what the zod shapes generate, and nothing else is there (run `pnpm schemas` after changing a shape)", () => {
    const files = schemaFiles();
    expect(readdirSync(folder).sort()).toEqual(Object.keys(files).sort());
    for (const [file, text] of Object.entries(files))
      expect(readFileSync(new URL(file, folder), "utf8")).toBe(text);
  });

  it("describe a real report: its required fields, integer millis as decimal text and the reconciliation values", () => {
    const schema = JSON.parse(schemaFiles()["round-report.schema.json"] ?? "{}");
    expect(schema.required).toEqual(
      expect.arrayContaining([
        "eventId",
        "schemaVersion",
        "operatorId",
        "roundId",
        "byCurrency",
        "reconciliation",
      ]),
    );
    expect(schema.properties.byCurrency.items.properties.ggr).toMatchObject({
      type: "string",
      pattern: "^-?(0|[1-9][0-9]*)$",
    });
    expect(schema.properties.reconciliation.enum).toEqual(["matched", "mismatch"]);
    expect(schema.properties.schemaVersion.const).toBe(2);
    expect(roundReportEventId(7, "r")).toBe("round-report:7:r");
  });
});
