#!/usr/bin/env bash
# `pnpm bench`: the queued system and the direct baseline side by side (bench/README.md).
# Needs only what `npm test` needs: it installs dependencies and starts MariaDB and Redis if down.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
bash "$ROOT/scripts/services.sh"
say "benchmark: queued (gateway + worker) vs direct baseline; settings in bench/README.md"
cd "$ROOT" && exec node --import tsx bench/src/run.ts
