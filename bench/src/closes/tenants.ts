import { benchTenant } from "../product.ts";

/**
 * The two operators of every stack: `pnpm bench`'s tenant (whose platform sends the closes) and a
 * second one, so the other players' load is two operators' as the issue asks.
 */
export const closesTenants = [
  benchTenant,
  { operatorId: 2, publicKey: "bench-public-key-2", secretKey: "bench-secret-key-2" },
] as const;
export type ClosesTenant = (typeof closesTenants)[number];
