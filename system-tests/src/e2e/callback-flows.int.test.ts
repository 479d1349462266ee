import { useRunningSystem } from "../harness/system.ts";
import { callbackFlows } from "./callback-flows.suite.ts";

const running = useRunningSystem({ env: { BODY_LIMIT_BYTES: "4096" } });
callbackFlows({
  system: running.system,
  get gateway() {
    return running.gateway;
  },
  workers: 1,
});
