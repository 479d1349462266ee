#!/usr/bin/env bash
# `pnpm test:security`: the security suite (faults/src/security, faults/README.md): tenant isolation,
# operator API tokens, constant-time refusals and no secret in any log, against the whole system under
# the platform simulator's load. Like the fault suite it runs MariaDB and Redis servers of its own, so
# it needs their programs installed but never touches the machine's servers.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
for program in /usr/sbin/mariadbd mariadb-install-db redis-server; do
  command -v "$program" >/dev/null 2>&1 || fail "$program is missing; the security suite runs servers of its own.
    Install them (Debian: apt-get install -y mariadb-server redis-server)."
done
cd "$ROOT"
report="$(mktemp -t vitest-security-XXXXXX.json)"
trap 'rm -f "$report"' EXIT
say "running the security suite"
status=0
pnpm exec vitest run --project security --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
node -e "const r=require(process.argv[1]);console.log('security: '+r.numPassedTests+' passed, '+r.numFailedTests+' failed')" "$report" 2>/dev/null \
  || echo "security: 0 passed, 1 failed"
exit "$status"
