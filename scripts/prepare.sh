#!/usr/bin/env bash
# Everything a fresh machine with only Node and npm needs before the system runs or tests:
# pnpm, dependencies, MariaDB and Redis up, migrations applied.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
bash "$ROOT/scripts/services.sh"
say "applying migrations to $(url_host "$DATABASE_URL")"
(cd "$ROOT" && pnpm --silent db:migrate)
