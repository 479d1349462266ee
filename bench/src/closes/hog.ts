import { fsyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, Worker, workerData } from "node:worker_threads";

/**
 * The stand-in for `stress-ng --cpu 4 --hdd 2` where Debian's stress-ng cannot be installed: four
 * busy loops and two writers that write 1 MiB blocks to a file of their own and fsync each, rewriting
 * it from the start every 256 MiB. Run by the benchmark's launcher (it ends with the benchmark);
 * argv[2] is the folder for the files.
 */
const BLOCK = 1024 * 1024;
const FILE_BYTES = 256 * BLOCK;

function busy(): never {
  let x = 0;
  for (;;) x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
}

/** The folder is removed by whoever started the hog (contention.ts), once it is gone. */
function writeForever(file: string): never {
  const block = Buffer.alloc(BLOCK, 0x5a);
  const fd = openSync(file, "w");
  for (let at = 0; ; at = (at + BLOCK) % FILE_BYTES) {
    writeSync(fd, block, 0, BLOCK, at);
    fsyncSync(fd);
  }
}

if (isMainThread) {
  const folder = process.argv[2] ?? ".";
  const self = new URL(import.meta.url);
  for (let i = 0; i < 4; i++) new Worker(self, { workerData: { role: "cpu" } });
  for (let i = 0; i < 2; i++)
    new Worker(self, { workerData: { role: "hdd", file: join(folder, `hdd-${i}`) } });
  console.log("hog running: 4 busy loops, 2 fsync writers");
} else if ((workerData as { role: string }).role === "cpu") {
  busy();
} else {
  writeForever((workerData as { file: string }).file);
}
