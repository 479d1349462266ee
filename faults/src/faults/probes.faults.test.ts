import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { eventually } from "@wallet/system-tests/harness/system";
import { beforeAll, describe, expect, it } from "vitest";
import { useFaultSystem } from "../harness/use-fault-system.ts";

// The probes Kubernetes uses (infra/k8s): /healthz for liveness, /readyz for readiness, on every app.
const running = useFaultSystem({ workers: 1, players: 1 });
let api: AppProcess;
beforeAll(async () => {
  api = await running.system.startOperatorApi();
}, 60_000);

const probe = async (port: number | undefined, path: string) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

function endpoints() {
  const worker = running.system.processes.find(
    (proc) => proc.name === "worker" && proc.child.exitCode === null,
  );
  return {
    gateway: running.system.gateway?.port,
    // The worker serves its probes on its metrics port: it has no other HTTP server.
    worker: worker?.metricsPort,
    "operator-api": api.port,
  };
}

describe("liveness and readiness probes", () => {
  it("all three apps are alive and ready, without a token, while MariaDB and Redis answer", async () => {
    for (const [app, port] of Object.entries(endpoints())) {
      expect({ app, ...(await probe(port, "/healthz")) }).toEqual({
        app,
        status: 200,
        body: { status: "alive" },
      });
      await eventually(
        async () => ((await probe(port, "/readyz")).status === 200 ? true : undefined),
        10_000,
        app,
      );
    }
    expect((await probe(endpoints().worker, "/readyz")).body).toEqual({
      status: "ready",
      mysql: "ok",
      redis: "ok",
    });
    expect((await probe(endpoints()["operator-api"], "/readyz")).body).toEqual({
      status: "ready",
      mysql: "ok",
      redis: "ok",
    });
  });

  it("MariaDB down: every app stays alive but turns not ready, and ready again once it is back", async () => {
    const { system } = running;
    await system.mariadb.signal("SIGKILL");
    for (const [app, port] of Object.entries(endpoints())) {
      await eventually(
        async () => ((await probe(port, "/readyz")).status === 503 ? true : undefined),
        15_000,
        app,
      );
      // Alive all the same: restarting a process does not bring a database back.
      expect((await probe(port, "/healthz")).status).toBe(200);
    }
    expect((await probe(endpoints().worker, "/readyz")).body).toMatchObject({
      status: "not ready",
      mysql: "down",
    });
    // The gateway is not ready because no worker heartbeats (a worker beats only while MySQL answers).
    expect((await probe(endpoints().gateway, "/readyz")).body).toMatchObject({
      status: "not ready",
      workers: 0,
    });
    await system.mariadb.restart();
    for (const [app, port] of Object.entries(endpoints())) {
      await eventually(
        async () => ((await probe(port, "/readyz")).status === 200 ? true : undefined),
        20_000,
        app,
      );
    }
  });
});
