import { describe, expect, it } from "vitest";
import type { ExpiredRow } from "./expired-chunk.ts";
import { onRefusedForSize } from "./size-refusal.ts";

const KiB = 1024;
const row = (id: number, bytes: number): ExpiredRow => ({ id, at: new Date(0), bytes });

// MariaDB here runs without a binary log and without Group Replication: no server here refuses a
// DELETE for its size, so what follows a refusal is held here, and the chunks themselves in
// prune-expired.int.test.ts.
describe("a retention chunk refused for its size (issue 42)", () => {
  it("rows within the budget together are deleted one at a time; a row past the budget alone is stepped over; a row within it alone is the server's problem", () => {
    expect(onRefusedForSize([row(1, 20 * KiB), row(2, 30 * KiB)], 64 * KiB)).toBe("one_at_a_time");
    expect(onRefusedForSize([row(3, 100 * KiB)], 64 * KiB)).toBe("step_over");
    expect(onRefusedForSize([row(4, 64 * KiB)], 64 * KiB)).toBe("throw");
    expect(onRefusedForSize([], 64 * KiB)).toBe("throw");
  });
});
