#!/usr/bin/env bash
# `pnpm dashboards:snapshot`: one PNG per Grafana dashboard under infra/snapshots/, drawn from a real
# Prometheus run: the observability suite (healthy load, a worker restart, then the runbook's faults)
# keeps every panel's data, and infra/src/snapshots renders it in headless Chromium. Grafana itself is
# the provisioned one in infra/docker-compose.yml; these pictures are for reading without it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_debian_program chromium chromium || fail "the snapshot renderer needs Chromium"
data="$(mktemp -t wallet-snapshot-XXXXXX.json)"
trap 'rm -f "$data"' EXIT
# Each fault held until its alert fires, so the pictures show minutes of it, not seconds.
status=0
OBSERVABILITY_UNTIL="${OBSERVABILITY_UNTIL:-firing}" OBSERVABILITY_SNAPSHOT_FILE="$data" \
  bash "$ROOT/scripts/test-observability.sh" "$@" || status=$?
cd "$ROOT"
[ -s "$data" ] || fail "the observability run kept no panel data"
# Drawn even when a check failed: the pictures are the first thing to look at then.
say "rendering the dashboards"
node --import tsx infra/src/snapshots/render.cli.ts "$data" infra/snapshots
exit "$status"
