import { execFile } from "node:child_process";
import { createServer, type Server } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

let taken: Server;
let port = 0;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "::", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => taken.close());

describe("serveMetrics on a port already in use (issue 19)", () => {
  it("ends the process with one line naming the port and METRICS_PORT, no stack trace", async () => {
    const script =
      "import { Registry } from 'prom-client';" +
      "import { serveMetrics } from './src/metrics-server.ts';" +
      `await serveMetrics(new Registry(), ${port});` +
      "console.log('served');";
    const outcome = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: packageRoot,
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
    );
    expect(outcome).toEqual({
      code: 1,
      stderr: `metrics port ${port} is already in use: set METRICS_PORT to a free port (0 picks one)\n`,
    });
  });
});
