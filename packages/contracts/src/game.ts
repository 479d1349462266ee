import { z } from "zod";

/** One element of `GET /api/v1/games`. */
export const game = z.object({
  id: z.string().min(1),
  name: z.string(),
  category: z.string(),
  gameUrl: z.string(),
  demoAvailable: z.boolean(),
  mobileSupport: z.boolean(),
  freeSpinSupport: z.boolean(),
  imageLink: z.string(),
});
export type Game = z.infer<typeof game>;
export const gameList = z.array(game);

export const portalModes = ["real", "demo"] as const;

/** Query of `GET /api/v1/launch/{game}`; the contract names the parameters but not which are required. */
export const launchQuery = z.object({
  userToken: z.string().min(1),
  currency: z.string().regex(/^[A-Z]{3}$/, "must be a 3-letter ISO currency code"),
  platform: z.string().min(1),
  portalMode: z.enum(portalModes),
  returnUrl: z.string().optional(),
  language: z.string().optional(),
});
export type LaunchQuery = z.infer<typeof launchQuery>;

export const launchResult = z.looseObject({
  launch_url: z.string().min(1),
  session_token: z.string().min(1),
});
export type LaunchResult = z.infer<typeof launchResult>;
