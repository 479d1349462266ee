#!/usr/bin/env bash
# The first command a new user runs: prepares the machine, starts worker, gateway, operator API and
# platform simulator, plays live crash rounds through the signed callback path, then stays up until Ctrl-C,
# consuming the round reports as the reporting team would.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
prepare_machine
cd "$ROOT"
export GATEWAY_PORT="${GATEWAY_PORT:-3000}"
logs="$ROOT/.logs"; mkdir -p "$logs"

# A port already taken (an earlier `npm start` still running) would let the readiness wait below
# pass against the old processes, on another database: refuse instead.
for port in "$GATEWAY_PORT" 3100 3200 9100 9101 9102; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    fail "port $port is already in use (another npm start still running?): stop it first"
  fi
done

pids=()
stop_all() {
  trap - INT TERM EXIT
  say "stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop_all INT TERM EXIT

(cd apps/worker && exec node --import tsx src/main.ts) >"$logs/worker.log" 2>&1 & pids+=($!)
(cd apps/gateway && exec node --import tsx src/main.ts) >"$logs/gateway.log" 2>&1 & pids+=($!)
(cd apps/operator-api && exec node --import tsx src/main.ts) >"$logs/operator-api.log" 2>&1 & pids+=($!)
(cd apps/platform-sim && exec node --import tsx src/main.ts) >"$logs/platform-sim.log" 2>&1 & pids+=($!)
say "waiting for gateway :$GATEWAY_PORT, operator API :3100 and platform simulator :3200 (logs in .logs/)"
ready() {
  curl -fs "http://127.0.0.1:$GATEWAY_PORT/readyz" >/dev/null 2>&1 &&
    curl -fs "http://127.0.0.1:3100/healthz" >/dev/null 2>&1 &&
    curl -fs "http://127.0.0.1:3200/healthz" >/dev/null 2>&1
}
for _ in $(seq 1 120); do ready && break; sleep 0.25; done
ready || { tail -n 20 "$logs"/*.log; fail "the system did not become ready"; }

(cd system-tests && node --import tsx src/demo/demo.ts) || say "the demo reported a problem (see above)"

# The reporting team's consumer, for as long as the system runs: the demo took its own rounds' reports
# off the reporting queue; this takes those of every round played later (POST /sim/play), so the queue
# never backs up and WalletReportingBacklog (15 minutes without a report taken) stays quiet.
(cd apps/worker && exec node --import tsx src/cli/reporting-export.ts --out "$ROOT/reports") \
  >"$logs/reporting-export.log" 2>&1 & pids+=($!)

cat <<MSG

The wallet is up: gateway http://127.0.0.1:$GATEWAY_PORT (/auth /withdraw /deposit /balance /healthz /readyz),
operator API http://127.0.0.1:3100 (Authorization: Bearer dev-operator-token; /openapi.json),
platform simulator http://127.0.0.1:3200 (POST /sim/play {"rounds":N} plays more rounds).
Prometheus metrics: gateway :9100/metrics, worker :9101/metrics, operator API :9102/metrics (docs/metrics.md).
Round reports are taken off the reporting queue into reports/ as they come (pnpm reporting:export,
log in .logs/reporting-export.log), as the reporting team's consumer does (docs/side-effects.md).
Send a signed callback by hand (README.md, with USER_ID= from the demo's summary above):
  pnpm --silent send-callback /balance "{\"user_id\":\"\$USER_ID\"}"
Ctrl-C stops everything.
MSG
wait
