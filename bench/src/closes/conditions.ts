/**
 * What else runs while a close is sent: (a) `idle`: four players playing (BET, WIN, /balance, 20 ms
 * apart), as the end-to-end large-close test has them; (b) `load`: signed closed-loop load of two
 * operators (c32 each: c64); (c) `contention`: `stress-ng --cpu 4 --hdd 2` beside the stack at its
 * priority, with the load of (b) unless BENCH_CLOSES_CONTENTION_LOAD=0 (then the idle players).
 */
export const conditions = ["idle", "load", "contention"] as const;
export type Condition = (typeof conditions)[number];
