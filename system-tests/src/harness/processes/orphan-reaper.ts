import { spawn } from "node:child_process";
import type { Writable } from "node:stream";

// Node runs no code when it dies of SIGKILL or of a signal it leaves unhandled (SIGTERM, SIGINT and
// SIGHUP by default), so nothing of ours can stop its children then. A small watcher process does:
// it reads the process groups of our children from a pipe only we write to, and when the pipe
// closes (we are gone, however we went) it kills every group still listed. It runs in a group of
// its own, so the signal that ends us (a Ctrl-C to the terminal's group) does not end it first.
const watcherSource = `
const groups = new Set();
let partial = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (partial + chunk).split("\\n");
  partial = lines.pop();
  for (const line of lines) {
    if (line[0] === "+") groups.add(line.slice(1));
    else groups.delete(line.slice(1));
  }
});
process.stdin.on("close", () => {
  for (const group of groups) {
    try { process.kill(-Number(group), "SIGKILL"); } catch {}
  }
});
`;

let watcher: Writable | undefined;

function watcherInput(): Writable {
  if (watcher) return watcher;
  const child = spawn(process.execPath, ["-e", watcherSource], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  child.unref();
  const input = child.stdin;
  if (!input) throw new Error("the orphan watcher has no input");
  // Never what keeps us alive: we may exit while it waits.
  (input as Writable & { unref(): void }).unref();
  input.on("error", () => {});
  watcher = input;
  return input;
}

/** Tells the watcher that the process group `pid` leads is ours (`true`), or gone (`false`). */
export function watchOverChildren(pid: number | undefined, ours: boolean): void {
  if (!pid) return;
  watcherInput().write(`${ours ? "+" : "-"}${pid}\n`);
}
