import { sampleSum, scrape } from "@wallet/telemetry/testing/scrape";

/** `good` (a base64 HMAC-SHA256) one bit off in its first, last and middle byte, each named. */
export function oneBitOff(good: string): Array<[string, string]> {
  const flipped = (index: number) => {
    const bytes = Buffer.from(good, "base64");
    bytes[index] = (bytes[index] ?? 0) ^ 0x01;
    return bytes.toString("base64");
  };
  return [
    ["first byte", flipped(0)],
    ["last byte", flipped(31)],
    ["middle byte", flipped(16)],
  ];
}

/** How many signatures the gateway has refused after comparing their digest, from its metrics. */
export async function signatureMismatches(metricsPort: number): Promise<number> {
  return sampleSum(await scrape(metricsPort), "wallet_signature_failures_total", { reason: "mismatch" });
}
