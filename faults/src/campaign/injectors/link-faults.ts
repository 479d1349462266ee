import type { FaultProxy } from "../../proxy/fault-proxy.ts";
import type { ScheduledFault } from "../schedule/catalog.ts";
import type { CampaignSystem } from "../system.ts";
import { pause } from "./pause.ts";

/** The proxies on a link: apps–MariaDB has two on Galera (one per written node), faulted together. */
export function proxiesOf(system: CampaignSystem, link: string): FaultProxy[] {
  const { faults } = system;
  const proxies =
    link === "platform-gateway"
      ? [faults.front]
      : link === "apps-mariadb"
        ? system.workers.proxies
        : link === "apps-redis"
          ? [faults.redisProxy]
          : [];
  const found = proxies.filter((proxy) => proxy !== undefined);
  if (found.length === 0) throw new Error(`no proxy on link ${link}`);
  return found;
}

/** Every packet on the link delayed by `ms` for the fault's duration. */
export async function delayLink(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const proxies = proxiesOf(system, fault.target);
  for (const proxy of proxies) proxy.setLatency(fault.detail.ms ?? 100);
  try {
    await pause(fault.durationMs);
  } finally {
    for (const proxy of proxies) proxy.setLatency(0);
  }
  return `${fault.detail.ms} ms per packet`;
}

/** Every open connection on the link reset (TCP RST), again every `everyMs` while the fault lasts. */
export async function resetLink(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const proxies = proxiesOf(system, fault.target);
  const until = Date.now() + fault.durationMs;
  let resets = 0;
  do {
    for (const proxy of proxies) resets += proxy.resetAll();
    await pause(Math.min(fault.detail.everyMs ?? 500, Math.max(0, until - Date.now())));
  } while (Date.now() < until);
  return `${resets} connections reset`;
}

/** The link black-holed (bytes held, as TCP would retransmit them) for the fault's duration, then healed. */
export async function partitionLink(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const proxies = proxiesOf(system, fault.target);
  for (const proxy of proxies) proxy.setMode("blackhole");
  try {
    await pause(fault.durationMs);
  } finally {
    for (const proxy of proxies) proxy.setMode("pass");
  }
  return "partitioned";
}
