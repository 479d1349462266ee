import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { dashboardsOutDir, renderDashboards } from "./all.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const outDir = join(repoRoot, dashboardsOutDir);
const rendered = renderDashboards();

interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { uid: string };
  targets?: { expr: string; datasource: { uid: string } }[];
}

describe("Grafana dashboards", () => {
  it("the committed JSON is exactly what the generator writes (run `pnpm --filter @wallet/infra dashboards`)", () => {
    const committed = readdirSync(outDir)
      .filter((name) => name.endsWith(".json"))
      .sort();
    expect(committed).toEqual([...rendered.keys()].sort());
    for (const [name, content] of rendered) {
      expect(readFileSync(join(outDir, name), "utf8"), name).toBe(content);
    }
  });

  for (const [name, content] of rendered) {
    const dashboard = JSON.parse(content) as { uid: string; panels: Panel[] };
    const panels = dashboard.panels.filter((panel) => panel.type !== "row");

    it(`${name}: every panel says what it shows and what a bad value means`, () => {
      const undocumented = panels
        .filter((panel) => (panel.description ?? "").length < 40)
        .map((p) => p.title);
      expect(undocumented).toEqual([]);
    });

    it(`${name}: every panel queries the provisioned Prometheus and fits the grid`, () => {
      for (const panel of panels) {
        expect(panel.datasource?.uid, panel.title).toBe("prometheus");
        expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
        for (const target of panel.targets ?? []) expect(target.datasource.uid).toBe("prometheus");
        expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      }
      const ids = dashboard.panels.map((panel) => panel.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it(`${name}: no two panels overlap`, () => {
      const cells = new Set<string>();
      for (const { gridPos } of dashboard.panels) {
        for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++) {
          for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
            const cell = `${x},${y}`;
            expect(cells.has(cell), `${name} cell ${cell}`).toBe(false);
            cells.add(cell);
          }
        }
      }
    });
  }

  it("docs/runbook.md explains every panel of every dashboard", () => {
    const runbook = readFileSync(join(repoRoot, "docs/runbook.md"), "utf8");
    const missing = [...rendered.values()]
      .flatMap((content) => (JSON.parse(content) as { panels: Panel[] }).panels)
      .filter((panel) => panel.type !== "row" && !runbook.includes(`| **${panel.title}** |`))
      .map((panel) => panel.title);
    expect(missing).toEqual([]);
  });

  it("dashboard uids are unique and match their file names", () => {
    const uids = [...rendered].map(([name, content]) => {
      const { uid } = JSON.parse(content) as { uid: string };
      expect(name).toBe(`${uid}.json`);
      return uid;
    });
    expect(new Set(uids).size).toBe(uids.length);
  });
});
