/**
 * An immutable string-keyed map for the wallet model: `set` copies only the path to the changed entry
 * (a 16-way hash trie), so a model state is cheap to keep at every step of a search. It also keeps a
 * signature of its content, the sum of a 64-bit hash of each entry (two 32-bit lanes), updated on each
 * `set`: two maps holding the same entries have the same signature whatever the order they were built in.
 */
type Trie<V> =
  | { readonly kind: "branch"; readonly children: ReadonlyArray<Trie<V> | undefined> }
  | { readonly kind: "leaf"; readonly hash: number; readonly entries: ReadonlyArray<readonly [string, V]> };

export interface PersistentMap<V> {
  readonly root: Trie<V> | undefined;
  readonly size: number;
  /** The sum of every entry's hash; equal content, equal signature. */
  readonly signature: string;
  readonly laneA: number;
  readonly laneB: number;
  /** What of a value the signature covers. */
  readonly describe: (value: V) => string;
}

const BITS = 4;
const WIDTH = 1 << BITS;

export function emptyMap<V>(describe: (value: V) => string): PersistentMap<V> {
  return { root: undefined, size: 0, signature: "0.0", laneA: 0, laneB: 0, describe };
}

/** FNV-1a over UTF-16 units (the map's slot hash). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Two independent 32-bit hashes of an entry in one pass (FNV-1a from two offset bases). */
function entryLanes(key: string, described: string): [number, number] {
  const text = `${key}\u0000${described}`;
  let laneA = 0x811c9dc5;
  let laneB = 0x050c5d1f;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    laneA = Math.imul(laneA ^ unit, 0x01000193);
    laneB = Math.imul(laneB ^ unit, 0x01000193);
  }
  return [laneA >>> 0, laneB >>> 0];
}

export function getEntry<V>(map: PersistentMap<V>, key: string): V | undefined {
  const hash = fnv1a(key);
  let node = map.root;
  let shift = 0;
  while (node) {
    if (node.kind === "leaf") {
      if (node.hash !== hash) return undefined;
      return node.entries.find(([entryKey]) => entryKey === key)?.[1];
    }
    node = node.children[(hash >>> shift) & (WIDTH - 1)];
    shift += BITS;
  }
  return undefined;
}

export function setEntry<V>(map: PersistentMap<V>, key: string, value: V): PersistentMap<V> {
  const hash = fnv1a(key);
  const previous = getEntry(map, key);
  const root = insert(map.root, hash, key, value, 0);
  const [addA, addB] = entryLanes(key, map.describe(value));
  const [dropA, dropB] = previous === undefined ? [0, 0] : entryLanes(key, map.describe(previous));
  const laneA = (map.laneA + addA - dropA) >>> 0;
  const laneB = (map.laneB + addB - dropB) >>> 0;
  return {
    root,
    size: map.size + (previous === undefined ? 1 : 0),
    signature: `${laneA.toString(36)}.${laneB.toString(36)}`,
    laneA,
    laneB,
    describe: map.describe,
  };
}

function insert<V>(node: Trie<V> | undefined, hash: number, key: string, value: V, shift: number): Trie<V> {
  if (!node) return { kind: "leaf", hash, entries: [[key, value]] };
  if (node.kind === "leaf") {
    if (node.hash === hash) {
      const others = node.entries.filter(([entryKey]) => entryKey !== key);
      return { kind: "leaf", hash, entries: [...others, [key, value]] };
    }
    // Two hashes under one slot: a branch tells them apart by their next bits.
    const children: Array<Trie<V> | undefined> = new Array(WIDTH).fill(undefined);
    children[(node.hash >>> shift) & (WIDTH - 1)] = node;
    return insert({ kind: "branch", children }, hash, key, value, shift);
  }
  const slot = (hash >>> shift) & (WIDTH - 1);
  const children = [...node.children];
  children[slot] = insert(node.children[slot], hash, key, value, shift + BITS);
  return { kind: "branch", children };
}
