#!/usr/bin/env bash
# `pnpm test:faults`: the fault-injection suite (faults/src/faults, faults/README.md). It starts MariaDB
# and Redis servers of its own (own ports, own data folders under the temp dir), so it needs their
# programs installed but not running, and never touches the machine's servers. Files run one at a time.
# One file: `bash scripts/test-faults.sh faults/src/faults/<file>`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
require_programs "fault suite" /usr/sbin/mariadbd mariadb-install-db redis-server
ensure_debian_program mariadb-backup mariadb-backup || say "backup-restore.faults.test.ts will fail without it"
cd "$ROOT"
say "running the fault-injection suite (results in faults/results/)"
run_suite faults "$@"
