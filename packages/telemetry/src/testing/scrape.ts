/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** Every metric family the target declares (`# TYPE` lines), observed yet or not. */
  types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text format prom-client writes (enough for tests; not a general parser). */
export function parseScrape(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.startsWith("# TYPE ")) {
      const [, , name, type] = line.split(" ");
      if (name && type) types.set(name, type);
      continue;
    }
    if (line.startsWith("#") || line.trim() === "") continue;
    const match = SAMPLE.exec(line);
    if (!match?.[1] || !match[3]) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) {
      if (key !== undefined && value !== undefined) labels[key] = value.replace(/\\(.)/g, "$1");
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/** The sum of every sample of `name` whose labels include `labels` (0 when none). */
export function sampleSum(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const sample of scrape.samples) {
    if (sample.name !== name) continue;
    if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) total += sample.value;
  }
  return total;
}

/** Names a target exports, histograms and summaries expanded to their series names. */
export function exportedNames(scrape: Scrape): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of scrape.types) {
    names.add(name);
    if (type === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(name + suffix);
    if (type === "summary") for (const suffix of ["_sum", "_count"]) names.add(name + suffix);
  }
  return names;
}

export async function scrape(port: number): Promise<Scrape> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!response.ok) throw new Error(`GET :${port}/metrics answered ${response.status}`);
  return parseScrape(await response.text());
}
