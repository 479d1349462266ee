#!/usr/bin/env bash
# The first command a new user runs: prepares the machine, starts a worker and a gateway,
# plays a demo through the signed callback path, then keeps the system up until Ctrl-C.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bash "$ROOT/scripts/prepare.sh"
cd "$ROOT"
export GATEWAY_PORT="${GATEWAY_PORT:-3000}"
logs="$ROOT/.logs"; mkdir -p "$logs"

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
say "waiting for the gateway on :$GATEWAY_PORT (logs in .logs/)"
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$GATEWAY_PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.25
done
curl -fs "http://127.0.0.1:$GATEWAY_PORT/readyz" >/dev/null || { tail -n 20 "$logs"/*.log; fail "the system did not become ready"; }

say "playing demo rounds through the gateway"
(cd apps/gateway && WALLET_URL="http://127.0.0.1:$GATEWAY_PORT" node --import tsx src/cli/demo.ts)

cat <<MSG

The wallet is up: gateway http://127.0.0.1:$GATEWAY_PORT (/auth /withdraw /deposit /balance /healthz /readyz),
operator API http://127.0.0.1:${OPERATOR_API_PORT:-3100} (Authorization: Bearer dev-operator-token), worker metrics :9101/metrics.
Look a player up:                 curl -H 'Authorization: Bearer dev-operator-token' http://127.0.0.1:${OPERATOR_API_PORT:-3100}/v1/players/<user id>
Send a signed callback by hand:   pnpm send-callback /balance '{"user_id":"<a user id>"}'
Ctrl-C stops everything.
MSG
wait
