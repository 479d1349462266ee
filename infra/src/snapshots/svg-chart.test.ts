import { describe, expect, it } from "vitest";
import type { SnapshotPanel, SnapshotRun } from "./snapshot-run.ts";
import { formatValue, niceTicks, statSvg, thresholdColour, timeseriesSvg } from "./svg-chart.ts";

const start = 1_718_000_000;
const size = { width: 600, height: 240 };

function panel(overrides: Partial<SnapshotPanel>): SnapshotPanel {
  return {
    id: 1,
    title: "Callback rate",
    description: "",
    kind: "timeseries",
    unit: "reqps",
    gridPos: { x: 0, y: 1, w: 8, h: 8 },
    series: [],
    ...overrides,
  };
}

function run(overrides: Partial<SnapshotRun> = {}): SnapshotRun {
  return { start, end: start + 600, stepSeconds: 15, phases: [], dashboards: [], ...overrides };
}

const line = (values: number[]): Array<[number, number]> => values.map((v, i) => [start + i * 15, v]);

describe("formatValue", () => {
  it("writes each Grafana unit the way Grafana does", () => {
    expect(formatValue(0.125, "percentunit")).toBe("12.5%");
    expect(formatValue(0.25, "s")).toBe("250 ms");
    expect(formatValue(1.2, "s")).toBe("1.2 s");
    expect(formatValue(0.000_05, "s")).toBe("50 µs");
    expect(formatValue(250, "ms")).toBe("250 ms");
    expect(formatValue(1536, "bytes")).toBe("1.5 KiB");
    expect(formatValue(300 * 1024 * 1024, "bytes")).toBe("300 MiB");
    expect(formatValue(2 ** 50, "bytes")).toBe("1 PiB");
    expect(formatValue(999.9, "short")).toBe("1k");
    expect(formatValue(12.34, "reqps")).toBe("12.3 req/s");
    expect(formatValue(2500, "reqps")).toBe("2.5k req/s");
    expect(formatValue(7, "ops")).toBe("7 ops/s");
    expect(formatValue(1234, "short")).toBe("1.23k");
    expect(formatValue(-1200)).toBe("-1.2k");
    expect(formatValue(3e9, "short")).toBe("3G");
    expect(formatValue(0.5, "none")).toBe("0.5");
  });
});

describe("niceTicks", () => {
  for (const [min, max] of [
    [3, 97],
    [0.9991, 0.9999],
    [1e-9, 7e-9],
    [2e12, 9e13],
    [-5, 20],
    [42, 42],
    [0, 0],
    [-3, -3],
  ] as const) {
    it(`4-6 increasing ticks covering [${min}, ${max}]`, () => {
      const ticks = niceTicks(min, max);
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      expect(ticks.length).toBeLessThanOrEqual(7);
      for (let i = 1; i < ticks.length; i++) expect(ticks[i]).toBeGreaterThan(ticks[i - 1] ?? 0);
      expect(ticks[0]).toBeLessThanOrEqual(min);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-1)).toBeGreaterThan(ticks[0] ?? 0);
    });
  }

  it("counts bytes in powers of 1024", () => {
    expect(niceTicks(0, 800 * 2 ** 20, "bytes")).toEqual([0, 200, 400, 600, 800].map((n) => n * 2 ** 20));
  });
});

describe("timeseriesSvg", () => {
  it("draws one path per series that has points, and a labelled band per phase", () => {
    const svg = timeseriesSvg(
      panel({
        series: [
          { legend: "bet", points: line([1, 2, 3]) },
          { legend: "win", points: line([4, 5, 6]) },
          { legend: "refund", points: [] },
          { legend: "lone", points: [[start + 300, 2]] },
        ],
      }),
      run({ phases: [{ name: "worker killed", start: start + 120, end: start + 240 }] }),
      size,
    );
    expect(svg.match(/<path class="series"/g)).toHaveLength(3);
    expect(svg.match(/<circle /g)).toHaveLength(1);
    expect(svg).toContain('class="phase"');
    expect(svg).toContain(">worker killed</text>");
    expect(svg).toContain(">bet</text>");
    expect(svg).not.toContain(">refund</text>");
    expect(svg).not.toContain("No data");
    expect(svg).not.toContain("NaN");
  });

  it("breaks the line where points are missing for more than a step", () => {
    const points: Array<[number, number]> = [...line([1, 2]), [start + 300, 3], [start + 315, 4]];
    const svg = timeseriesSvg(panel({ series: [{ legend: "a", points }] }), run(), size);
    expect(svg.match(/d="([^"]*)"/)?.[1]?.match(/M/g)).toHaveLength(2);
  });

  it("labels the y axis in the panel's unit, with ticks around a flat line", () => {
    const svg = timeseriesSvg(
      panel({ unit: "s", series: [{ legend: "p99", points: line([0.25, 0.25]) }] }),
      run(),
      size,
    );
    expect(svg).toContain(">0 s</text>");
    expect(svg).toContain(">200 ms</text>");
    expect(svg).toContain(">400 ms</text>"); // the flat line at 250 ms sits between ticks, not on an edge
    expect(svg).toContain(">06:14:00</text>"); // start is 06:13:20 UTC; time ticks fall on round clock times
    expect(svg).not.toContain("NaN");
  });

  it('shows "No data" and why, when no series has points', () => {
    const svg = timeseriesSvg(
      panel({ emptyReason: "Only fills when a job stalls.", series: [{ legend: "x", points: [] }] }),
      run(),
      size,
    );
    expect(svg).toContain(">No data</text>");
    expect(svg).toContain("Only fills when a job stalls.");
    expect(svg).not.toContain("<path");
  });

  it("keeps the legend to 8 entries and counts the rest", () => {
    const series = Array.from({ length: 11 }, (_, i) => ({ legend: `s${i}`, points: line([i, i + 1]) }));
    const svg = timeseriesSvg(panel({ series }), run(), { width: 1200, height: 240 });
    expect(svg).toContain(">s7</text>");
    expect(svg).not.toContain(">s8</text>");
    expect(svg).toContain(">+3 more</text>");
  });

  it("escapes titles, legends and phase names for XML", () => {
    const svg = timeseriesSvg(
      panel({ title: "a <b> & c", series: [{ legend: 'x<&>"y', points: line([1, 2]) }] }),
      run({ phases: [{ name: "<kill & restart>", start, end: start + 60 }] }),
      size,
    );
    expect(svg).toContain("<title>a &lt;b&gt; &amp; c</title>");
    expect(svg).toContain(">x&lt;&amp;&gt;&quot;y</text>");
    expect(svg).toContain(">&lt;kill &amp; restart&gt;</text>");
    expect(svg).not.toMatch(/<b>|<&|<kill/);
  });
});

describe("statSvg", () => {
  it("shows the last value of the first series in its unit, or No data", () => {
    const stat = panel({ kind: "stat", unit: "percentunit" });
    const last = statSvg({ ...stat, series: [{ legend: "", points: line([0.5, 0.9987]) }] }, size);
    expect(last).toContain(">99.9%</text>");
    expect(statSvg(stat, size)).toContain(">No data</text>");
  });
});

describe("stat colours and mappings, as Grafana shows them", () => {
  const size = { width: 300, height: 150 };
  const stat = {
    id: 1,
    title: "MySQL (worst service)",
    description: "",
    kind: "stat" as const,
    gridPos: { x: 0, y: 0, w: 6, h: 5 },
    thresholds: [
      { value: null, color: "red" },
      { value: 1, color: "green" },
    ],
    mappings: { "0": "DOWN", "1": "UP" },
  };

  it("the last threshold the value reaches gives the colour", () => {
    expect(thresholdColour(stat, 0)).toBe("#F2495C");
    expect(thresholdColour(stat, 1)).toBe("#73BF69");
    expect(thresholdColour({ thresholds: undefined }, -5)).toBe("#73BF69");
  });

  it("a mapped value shows its text in its colour", () => {
    const down = statSvg(
      {
        ...stat,
        series: [
          {
            legend: "",
            points: [
              [1, 1],
              [2, 0],
            ],
          },
        ],
      },
      size,
    );
    expect(down).toContain(">DOWN</text>");
    expect(down).toContain('fill="#F2495C"');
  });
});
