import { type Limit, type LimitName, limits } from "@wallet/contracts/limits";
import { atTheEdges, bytesOf, sampleOf, widths } from "@wallet/contracts/testing/limit-strings";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestSystem } from "../harness/system.ts";
import { moneyDrives } from "./limits/amount-edges.ts";
import { cliDrives } from "./limits/cli-edges.ts";
import { countDrives } from "./limits/count-edges.ts";
import type { Drive, Edges } from "./limits/edge.ts";
import { EdgeWorld } from "./limits/edge-world.ts";
import { fieldDrives } from "./limits/field-edges.ts";
import { userIdDrives } from "./limits/id-edges.ts";
import { roundDrives } from "./limits/round-edges.ts";
import { type Sizes, sizeDrives } from "./limits/size-edges.ts";
import { textDrives } from "./limits/text-edges.ts";

/**
 * Every limit of `limits.ts` driven through every entry point of the running system that takes it
 * (gateway callbacks, whole and streamed; operator API paths, queries and bodies; the CLIs), at its
 * maximum and one past it, in characters of 1, 2, 3 and 4 UTF-8 bytes and mixed (fast-check draws
 * them): at the maximum taken and kept or answered byte for byte; one past it refused, with a 400
 * naming the limit (a 413 for a body, a 401 for a token, exit 2 for a CLI), and nothing moved:
 * every row of the operator, its balances and its free bets as they were.
 */
const sizes: Sizes = { callbackBody: 300_000, closeBody: 400_000 };
// Bodies larger than the defaults, so an attribute value at its limit (65,536 characters of 4 bytes)
// fits in a callback, and a close at its limit is quick to send; each limit is the setting's value.
const system = useTestSystem({
  env: {
    BODY_LIMIT_BYTES: String(sizes.callbackBody),
    CLOSE_ROUND_BODY_LIMIT_BYTES: String(sizes.closeBody),
  },
});
let world: EdgeWorld;
beforeAll(async () => {
  await system.startWorker();
  const gateway = await system.startGateway();
  const sim = await system.startPlatformSim(gateway);
  const api = await system.startOperatorApi({ PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}` });
  world = new EdgeWorld(system, gateway, api);
  await world.someone();
}, 60_000);

/** Limits no request from outside reaches: held by the unit tests named. */
const unitDrives: Drive[] = [
  {
    limit: "tenantPublicKey",
    by: "unit",
    test: "packages/contracts/src/tenants.test.ts (TENANTS, read at boot)",
  },
  {
    limit: "refusalMessage",
    by: "unit",
    test: "packages/contracts/src/close-refusal.test.ts (cut in code points)",
  },
  {
    limit: "refusedBodyStored",
    by: "unit",
    test: "packages/ledger/src/verbs/refused-closes.ts: a body read whole is at most 192 KiB as text",
  },
];

/** Every way every limit is driven. */
const drives = (w: EdgeWorld): Drive[] => [
  ...userIdDrives(w),
  ...roundDrives(w),
  ...fieldDrives(w),
  ...textDrives(w),
  ...cliDrives(w),
  ...sizeDrives(w, sizes),
  ...moneyDrives(w),
  ...countDrives(w),
  ...unitDrives,
];

/** At the limit everywhere, then one past it everywhere: each refusal as stated, and nothing moved. */
async function atTheLimit<V>(
  limit: Limit,
  edges: Edges<V>,
  value: V,
  past: V,
  fresh: () => V,
): Promise<void> {
  await edges.taken(value, fresh);
  const kept = new Set(edges.refusals.flatMap((refusal) => (refusal.stores ? [refusal.stores] : [])));
  const moves = async () => {
    const all: Record<string, string | number> = await world.moves();
    for (const table of kept) delete all[table];
    return all;
  };
  const before = await moves();
  const answers = [];
  for (const refusal of edges.refusals) answers.push({ entry: refusal.entry, ...(await refusal.send(past)) });
  expect(answers).toEqual(
    edges.refusals.map((refusal) => ({
      entry: refusal.entry,
      ...(refusal.answer ?? {
        status: 400,
        message: `${refusal.field}: must be at most ${limit.max} characters`,
      }),
    })),
  );
  expect(await moves()).toEqual(before);
  for (const refusal of edges.refusals) await refusal.afterwards?.(past);
}

/** Draws per width, unless a drive says otherwise: each is a whole pass through every entry point of the limit. */
const RUNS = 2;

async function drive(how: Drive): Promise<void> {
  const limit: Limit = limits[how.limit];
  switch (how.by) {
    case "code points":
      for (const width of widths)
        await atTheEdges(width, limit.max, how.runs ?? RUNS, (value, past) =>
          atTheLimit(limit, how.edges, value, past, () => sampleOf(width, limit.max)),
        );
      return;
    case "bytes":
      for (const width of widths)
        await atTheLimit(
          limit,
          how.edges,
          bytesOf(width, limit.max),
          bytesOf(width, limit.max + 1),
          () => "",
        );
      return;
    case "width":
      for (const width of widths) await atTheLimit(limit, how.edges, width, width, () => width);
      return;
    case "value":
      await atTheLimit(limit, how.edges, how.at[0], how.at[1], () => how.at[0]);
      return;
    case "token":
      await atTheLimit(limit, how.edges, "", "", () => "");
      return;
    case "unit":
      return;
  }
}

describe("every limit through every entry point, at its maximum and one past it", () => {
  it("every limit of limits.ts is driven here, or named with the unit test that holds it", () => {
    const driven = new Set(drives(world).map((how) => how.limit));
    expect([...driven].sort()).toEqual(Object.keys(limits).sort());
  });

  for (const name of Object.keys(limits) as LimitName[])
    it(`${name} (${limits[name].max} ${limits[name].unit})`, async () => {
      for (const how of drives(world).filter((candidate) => candidate.limit === name)) await drive(how);
    });
});
