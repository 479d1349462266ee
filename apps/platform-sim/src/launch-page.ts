import type { SimSession } from "./sessions.ts";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The minimal page a launch_url opens: which game, whose session, and how the rounds are going. */
export function launchPage(
  session: SimSession,
  gameName: string,
  stats: { rounds: number; roundsClosed: number },
): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<title>${escapeHtml(gameName)} · platform simulator</title>
<style>body{font:16px system-ui;margin:2rem;max-width:40rem}code{background:#eee;padding:0 .3rem}</style></head>
<body><h1>${escapeHtml(gameName)}</h1>
<p>Operator <code>${session.operatorId}</code>, ${escapeHtml(session.portalMode)} mode, ${escapeHtml(session.currency)}, ${escapeHtml(session.platform)}.</p>
<p>Session <code>${escapeHtml(session.sessionToken)}</code>${session.userId ? ` · player <code>${escapeHtml(session.userId)}</code>` : ""}</p>
<p>Balance seen by the platform: <strong>${session.lastBalance ?? "—"}</strong> millis</p>
<p>Rounds played: ${stats.rounds} · closed: ${stats.roundsClosed}</p>
</body></html>`;
}
