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
gate="$(mktemp -t vitest-gate-XXXXXX.json)"
trap 'rm -f "$report" "$gate"' EXIT
say "running every test"
status=0
pnpm exec vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# The portability gate reads what the integration tests just sent (MariaDB's general log): it runs
# after them, and only when they ran (a filtered run, `pnpm test <file>`, would leave it too little).
if [ "$#" -eq 0 ]; then
  say "portability gate: every statement the integration tests sent, against the common SQL dialect"
  pnpm exec vitest run --project portability --reporter=default --reporter=json --outputFile.json="$gate" || status=$?
else
  echo '{"numPassedTests":0,"numFailedTests":0,"numPendingTests":0}' >"$gate"
fi
# One plain closing line that any CI can read.
node -e "const [a,b]=process.argv.slice(1).map(f=>require(f));const n=k=>a[k]+b[k];console.log(n('numPassedTests')+' passed, '+n('numFailedTests')+' failed'+(n('numPendingTests')?', '+n('numPendingTests')+' skipped':''))" "$report" "$gate" 2>/dev/null \
  || echo "0 passed, 1 failed"
exit "$status"
