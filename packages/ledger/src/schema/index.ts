// The drizzle schema object (drizzle-kit reads this file); verbs import the tables they use directly.
export * from "./bets.ts";
export * from "./free-bet-grants.ts";
export * from "./game-sessions.ts";
export * from "./idempotency-records.ts";
export * from "./journal-entries.ts";
export * from "./loyalty.ts";
export * from "./outbox.ts";
export * from "./players.ts";
export * from "./rg-daily.ts";
export * from "./round-closes.ts";
export * from "./round-reports.ts";
export * from "./rounds.ts";
export * from "./side-effect-receipts.ts";
export * from "./tenants.ts";
export * from "./tournaments.ts";
export * from "./user-tokens.ts";
export * from "./wallets.ts";
