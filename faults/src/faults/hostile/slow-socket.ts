import { once } from "node:events";
import net from "node:net";

/**
 * A raw socket that sends `head` at once, then `trickle.bytes` one byte every `everyMs` (or nothing):
 * `closed` resolves when the server closes it, with what it answered; never later than 20 s.
 */
export async function slowSocket(port: number, head: string, trickle?: { bytes: string; everyMs: number }) {
  const socket = net.connect({ host: "127.0.0.1", port });
  await once(socket, "connect");
  const openedAt = performance.now();
  let received = "";
  let sent = 0;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  // A reset is a close too; writing to a socket the server closed is expected.
  socket.on("error", () => {});
  socket.write(head);
  const timer = trickle
    ? setInterval(() => {
        if (sent < trickle.bytes.length && socket.writable) socket.write(trickle.bytes.charAt(sent++));
      }, trickle.everyMs)
    : undefined;
  const closed = new Promise<{ afterMs: number; received: string; sent: number }>((resolve) => {
    const giveUp = setTimeout(() => socket.destroy(), 20_000);
    socket.once("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ afterMs: performance.now() - openedAt, received, sent });
    });
  });
  return { openedAt, closed };
}

/** An HTTP/1.1 request line and headers, as written on the wire, up to and including the blank line. */
export function requestHead(requestLine: string, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${requestLine}\r\n${lines.join("")}\r\n`;
}
