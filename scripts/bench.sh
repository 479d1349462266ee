#!/usr/bin/env bash
# `pnpm bench`: the queued system, a plain reference wallet and the floor side by side (bench/README.md).
# Needs only what `npm test` needs: it installs dependencies and starts MariaDB and Redis if down.
# Stopped early (Ctrl-C, or pnpm or the benchmark killed), it leaves none of its processes running:
# the benchmark ends with pnpm, and its children with it (system-tests/src/harness/processes/).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
bash "$ROOT/scripts/services.sh"
say "benchmark: queued (gateway + worker) vs a plain reference wallet and the floor; settings in bench/README.md"
cd "$ROOT" && exec node --import tsx bench/src/run.ts
