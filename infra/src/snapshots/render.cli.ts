// Draws one PNG per dashboard of a recorded run, with headless Chromium, since Grafana is not at hand:
// `node --import tsx infra/src/snapshots/render.cli.ts <run.json> [outDir]` (outDir: infra/snapshots).
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { dashboardHtml, pageWidth } from "./dashboard-page.ts";
import { readSnapshotRun } from "./snapshot-run.ts";

const [runPath, outArg] = process.argv.slice(2);
if (!runPath) {
  console.error("usage: node --import tsx infra/src/snapshots/render.cli.ts <run.json> [outDir]");
  process.exit(2);
}
const chromium = (process.env.PATH ?? "")
  .split(delimiter)
  .map((dir) => join(dir, "chromium"))
  .find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
if (!chromium) {
  console.error(
    "chromium is not on the PATH: install it with `apt-get install --no-install-recommends chromium`",
  );
  process.exit(1);
}
const run = readSnapshotRun(runPath);
const outDir = resolve(outArg ?? resolve(import.meta.dirname, "../../snapshots"));
mkdirSync(outDir, { recursive: true });

for (const dashboard of run.dashboards) {
  const work = mkdtempSync(join(tmpdir(), "dashboard-snapshot-"));
  try {
    const { html, height } = dashboardHtml(dashboard, run);
    const page = join(work, "page.html");
    writeFileSync(page, html);
    const png = join(outDir, `${dashboard.uid.replace(/[^\w.-]/g, "_")}.png`);
    rmSync(png, { force: true }); // an old picture must not pass for a new one
    let stderr = "";
    try {
      ({ stderr } = await promisify(execFile)(
        chromium,
        [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--hide-scrollbars",
          `--user-data-dir=${join(work, "profile")}`,
          `--window-size=${pageWidth},${height}`,
          `--screenshot=${png}`,
          pathToFileURL(page).href,
        ],
        { timeout: 60_000 },
      ));
    } catch (error) {
      stderr = String((error as { stderr?: string }).stderr || error);
    }
    if (!existsSync(png)) {
      console.error(`chromium wrote no ${png} for ${dashboard.uid}:\n${stderr}`);
      process.exitCode = 1;
      break;
    }
    console.log(`wrote ${relative(process.cwd(), png)} (${pageWidth}×${height})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
