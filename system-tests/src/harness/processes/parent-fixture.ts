import { endWithParent, launch } from "./launch.ts";

// The parent processes.int.test.ts signals, a stand-in for `pnpm bench`: it launches two children as
// the benchmark launches its processes, one of them frozen (as `pnpm bench` freezes the sides not
// under load) and one with a child of its own, prints its pid and theirs as a JSON line and waits.
// With `exit` it exits on its own.
endWithParent();
const frozen = launch({ name: "frozen", command: "sleep", args: ["600"], output: { lines: {} } });
frozen.child.kill("SIGSTOP");
const shell = launch({
  name: "shell",
  command: "sh",
  args: ["-c", "sleep 600 & echo $!; wait"],
  output: {
    lines: {
      onLine: (grandchild) => {
        console.log(
          JSON.stringify({ parent: process.pid, pids: [frozen.pid, shell.pid, Number(grandchild)] }),
        );
        if (process.argv[2] === "exit") process.exit(0);
      },
    },
  },
});
setInterval(() => {}, 60_000);
