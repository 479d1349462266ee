import { randomUUID } from "node:crypto";

/** A player session opened by a launch; the engine plays the crash game with these. */
export interface SimSession {
  sessionToken: string;
  operatorId: number;
  userToken: string;
  currency: string;
  platform: string;
  game: string;
  portalMode: "real" | "demo";
  openedAt: string;
  /** Filled by /auth. */
  userId?: string;
  lastBalance?: number;
}

export class Sessions {
  private readonly byToken = new Map<string, SimSession>();

  open(input: Omit<SimSession, "sessionToken" | "openedAt">): SimSession {
    const session: SimSession = {
      ...input,
      sessionToken: `sim-${randomUUID()}`,
      openedAt: new Date().toISOString(),
    };
    this.byToken.set(session.sessionToken, session);
    return session;
  }

  get(token: string): SimSession | undefined {
    return this.byToken.get(token);
  }

  /** Real-money sessions of the crash game: the players of the next rounds. */
  crashPlayers(): SimSession[] {
    return [...this.byToken.values()].filter(
      (session) => session.game === "crashGame" && session.portalMode === "real",
    );
  }
}
