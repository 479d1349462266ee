#!/usr/bin/env bash
# `pnpm test:faults`: the fault-injection suite (faults/src/faults, faults/README.md). It starts MariaDB
# and Redis servers of its own (own ports, own data folders under the temp dir), so it needs their
# programs installed but not running, and never touches the machine's servers. Files run one at a time.
# One file: `bash scripts/test-faults.sh faults/src/faults/<file>`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
for program in /usr/sbin/mariadbd mariadb-install-db redis-server; do
  command -v "$program" >/dev/null 2>&1 || fail "$program is missing; the fault suite runs servers of its own.
    Install them (Debian: apt-get install -y mariadb-server redis-server)."
done
ensure_debian_program mariadb-backup mariadb-backup || say "backup-restore.faults.test.ts will fail without it"
cd "$ROOT"
report="$(mktemp -t vitest-faults-XXXXXX.json)"
trap 'rm -f "$report"' EXIT
say "running the fault-injection suite (results in faults/results/)"
status=0
pnpm exec vitest run --project faults --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
node -e "const r=require(process.argv[1]);console.log('faults: '+r.numPassedTests+' passed, '+r.numFailedTests+' failed')" "$report" 2>/dev/null \
  || echo "faults: 0 passed, 1 failed"
exit "$status"
