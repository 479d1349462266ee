#!/usr/bin/env bash
# Every test: unit, integration and end to end, against the real MariaDB and Redis. The fault suite
# (`pnpm test:faults`) is separate: it kills servers of its own and wants the machine to itself.
# Each integration test file creates and drops its own database, so this can run twice in a row.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
prepare_machine
cd "$ROOT"

# promtool checks and unit-tests the Prometheus alert rules (infra/src/alert-rules.test.ts). It ships in
# Debian's `prometheus` package; without it those tests fail saying so.
ensure_debian_program promtool prometheus || say "the alert-rule tests will fail"

report="$(mktemp -t vitest-report-XXXXXX.json)"
trap 'rm -f "$report"' EXIT
say "running every test"
status=0
pnpm exec vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# One plain closing line that any CI can read.
node -e "const r=require(process.argv[1]);console.log(r.numPassedTests+' passed, '+r.numFailedTests+' failed'+(r.numPendingTests?', '+r.numPendingTests+' skipped':''))" "$report" 2>/dev/null \
  || echo "0 passed, 1 failed"
exit "$status"
