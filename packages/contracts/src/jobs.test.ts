import { describe, expect, it } from "vitest";
import { readLedgerJob } from "./jobs.ts";

const call = {
  op: "withdraw",
  tenantId: 1,
  rawBody: '{"action":"BET"}',
  bodySha256: "a".repeat(64),
  deadline: 1_700_000_000_000,
  enqueuedAt: 1_699_999_999_000,
};

describe("ledger jobs as a worker reads them", () => {
  it("reads a job of gathered calls as it is", () => {
    const job = {
      calls: [
        { ...call, id: "c1" },
        { ...call, id: "c2" },
      ],
      replyTo: "wallet:reply:gw-1",
    };
    expect(readLedgerJob(job, "job-9")).toEqual(job);
  });

  it("reads a job of the single-call shape (a gateway not yet upgraded), replying under the BullMQ job id", () => {
    const job = readLedgerJob({ ...call, replyTo: "wallet:reply:gw-1", traceparent: "00-ab-cd-01" }, "job-9");
    expect(job).toEqual({
      calls: [{ ...call, id: "job-9", traceparent: "00-ab-cd-01" }],
      replyTo: "wallet:reply:gw-1",
      traceparent: "00-ab-cd-01",
    });
  });

  it("refuses anything else", () => {
    expect(() => readLedgerJob({ calls: [], replyTo: "x" }, "job-9")).toThrow();
    expect(() => readLedgerJob({ op: "withdraw" }, "job-9")).toThrow();
  });
});
