import { execFile } from "node:child_process";
import { createServer, type Server } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Counter, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveMetrics } from "./metrics-server.ts";

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
      stderr: `metrics port ${port} is already in use: set METRICS_PORT to a free port (0 picks one) or METRICS_HOST to an address of this host\n`,
    });
  });
});

describe("serveMetrics' bind address (METRICS_HOST)", () => {
  const registryWithOne = () => {
    const registry = new Registry();
    new Counter({ name: "host_test_total", help: "a counter", registers: [registry] }).inc(3);
    return registry;
  };

  it("binds the address it is given, and serves /metrics there", async () => {
    const { server, port } = await serveMetrics(registryWithOne(), 0, { host: "127.0.0.1" });
    try {
      expect(server.address()).toMatchObject({ address: "127.0.0.1", family: "IPv4", port });
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(text).toContain("host_test_total 3");
    } finally {
      server.close();
    }
  });

  it("binds every interface when no address is given (the default: scraped from outside the pod)", async () => {
    const { server } = await serveMetrics(registryWithOne(), 0);
    try {
      expect(["::", "0.0.0.0"]).toContain((server.address() as { address: string }).address);
    } finally {
      server.close();
    }
  });
});
