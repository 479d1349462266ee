import { readFileSync } from "node:fs";

/**
 * `pnpm bench:profile-summary <file.cpuprofile> [top]`: where a V8 CPU profile's
 * time went, by package (node_modules name or workspace folder) and by function, self time.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topText] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const top = Number(topText ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});

function packageOf(url: string): string {
  if (!url) return "(native/gc/idle)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return url;
  const workspace = url.match(/\/(apps|packages|bench)\/([^/]+)\//);
  return workspace ? `${workspace[1]}/${workspace[2]}` : url;
}

const byPackage = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
for (const [id, micros] of selfMicros) {
  const node = byId.get(id);
  if (!node) continue;
  total += micros;
  const pkg = packageOf(node.callFrame.url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  const name = `${node.callFrame.functionName || "(anonymous)"} ${pkg}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `  ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1e6).toFixed(2).padStart(7)} s  ${name}`,
    );
  }
};
console.log(`total sampled: ${(total / 1e6).toFixed(2)} s`);
print("self time by package", byPackage);
print("self time by function", byFunction);
