import { closeSync, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";

/**
 * One folder, one exporter. A day file remembers the event ids it holds only when it is opened, so
 * two exporters appending to one folder each skip just what they wrote themselves: a republish
 * split between them wrote 15 lines for 9 reports. The folder's lock file, created with O_EXCL,
 * names its holder; a second exporter refuses to start while that holder lives.
 */
export const lockFileName = ".reporting-export.lock";

const lockHolder = z.object({ pid: z.number().int().positive(), host: z.string(), startedAt: z.string() });
export type LockHolder = z.infer<typeof lockHolder>;

/** The folder has a live exporter (or a lock naming none): this one must not touch it. */
export class FolderLocked extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      holder
        ? `${lockPath} is held by the exporter with pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}: one folder takes one exporter`
        : `${lockPath} names no exporter: if none runs on this folder, delete it`,
    );
  }
}

/** Creates `path` holding `text` only if it does not exist (O_CREAT | O_EXCL); false if it does. */
function createExclusive(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
  closeSync(fd);
  return true;
}

const readIfExists = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
};

/** Deletes `path`; one already gone (another starter's doing) is no error. */
const removeIfExists = (path: string): void => {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
};

const holderIn = (text: string): LockHolder | undefined => {
  try {
    return lockHolder.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
};

/**
 * Gone for good: its process no longer exists on this host (EPERM means it exists under another
 * user), or it is this very pid, left by an earlier life of it (a container's pid 1 after a restart).
 * A holder on another host cannot be checked, so it is never taken over.
 */
function isStale(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Takes the folder's lock, taking over a stale one (logged); throws `FolderLocked` while a live
 * exporter holds it. Returns the release, which deletes the lock only if it is still this one's.
 */
export async function lockFolder(dir: string, log?: (line: string) => void): Promise<() => void> {
  const path = join(dir, lockFileName);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() });
  let last: LockHolder | undefined;
  for (let attempt = 0; attempt < 40; attempt++) {
    if (createExclusive(path, mine))
      return () => {
        if (readIfExists(path) === mine) removeIfExists(path);
      };
    const text = readIfExists(path);
    if (text === undefined) continue; // released meanwhile
    last = holderIn(text);
    if (!last) {
      await sleep(50); // created, not yet written by its holder; unreadable for 2 s, it names no one
      continue;
    }
    if (!isStale(last)) throw new FolderLocked(path, last);
    await takeOverStale(path, text, last, mine, log);
  }
  throw new FolderLocked(path, last);
}

/**
 * Deletes the stale lock `text`, unless another starter got there first. Starters taking over at
 * once are serialized by a second O_EXCL file, so none deletes a lock another has just created;
 * that file's holder deletes it, or the next starter does if its holder died there.
 */
async function takeOverStale(
  path: string,
  text: string,
  holder: LockHolder,
  mine: string,
  log?: (line: string) => void,
): Promise<void> {
  const guard = `${path}.takeover`;
  if (!createExclusive(guard, mine)) {
    const guardHolder = holderIn(readIfExists(guard) ?? "");
    if (guardHolder && isStale(guardHolder)) removeIfExists(guard);
    else await sleep(50);
    return;
  }
  try {
    if (readIfExists(path) !== text) return;
    removeIfExists(path);
    log?.(
      `taking over the stale lock ${path}: its exporter (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}) is gone`,
    );
  } finally {
    removeIfExists(guard);
  }
}
