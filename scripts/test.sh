#!/usr/bin/env bash
# Every test: unit, integration and end to end, against the real MariaDB and Redis.
# Each integration test file creates and drops its own database, so this can run twice in a row.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bash "$ROOT/scripts/prepare.sh"
cd "$ROOT"
report="$(mktemp -t vitest-report-XXXXXX.json)"
trap 'rm -f "$report"' EXIT
say "running every test"
status=0
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# One plain closing line that any CI can read.
node -e "const r=require(process.argv[1]);console.log(r.numPassedTests+' passed, '+r.numFailedTests+' failed'+(r.numPendingTests?', '+r.numPendingTests+' skipped':''))" "$report" 2>/dev/null \
  || echo "0 passed, 1 failed"
exit "$status"
