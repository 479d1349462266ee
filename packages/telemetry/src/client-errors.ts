import { type Server, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/** Node's reasons for refusing a request before the app sees it, as the status Node itself would send. */
const refusals: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "request headers too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request not received in time"],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "request too large"],
};

/**
 * Node answers what its HTTP parser refuses (a malformed request, headers past its limit, a request
 * too slow) before any app code runs, with a bare status line. This answers the same statuses with
 * the JSON envelope every other answer carries (`{code, message}`), so a client's parser never meets
 * an empty body. A socket already answering, or gone, is only closed, as Node does.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === "ECONNRESET" || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    const [status, message] = refusals[error.code ?? ""] ?? [400, "malformed HTTP request"];
    const body = JSON.stringify({ code: status, message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
