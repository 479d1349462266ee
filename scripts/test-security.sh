#!/usr/bin/env bash
# `pnpm test:security`: the security suite (faults/src/security, faults/README.md): tenant isolation,
# operator API tokens, constant-time refusals and no secret in any log, against the whole system under
# the platform simulator's load. Like the fault suite it runs MariaDB and Redis servers of its own, so
# it needs their programs installed but never touches the machine's servers.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
require_programs "security suite" /usr/sbin/mariadbd mariadb-install-db redis-server
cd "$ROOT"
say "running the security suite"
run_suite security "$@"
