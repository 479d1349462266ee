#!/usr/bin/env bash
# `pnpm test:campaign`: the seeded fault campaign (faults/src/campaign, faults/README.md). Like the fault
# suite it starts MariaDB and Redis servers of its own, so it needs their programs, not them running.
#   pnpm test:campaign                        CI's campaign: its seeds, replay and the planted bugs
#   pnpm test:campaign --seed N --minutes M   one campaign (more: --seeds K, --shrink, --planted-bug)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
require_programs "fault campaign" /usr/sbin/mariadbd mariadb-install-db redis-server
cd "$ROOT"
if [ "$#" -gt 0 ]; then
  say "running the fault campaign: $*"
  exec node --import tsx faults/src/campaign/main.ts "$@"
fi
say "running the fault campaign's CI seeds (results in faults/results/campaign/)"
run_suite campaign
