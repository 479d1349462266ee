#!/usr/bin/env bash
# `pnpm bench:closes`: large CLOSE_ROUNDs on an idle system, under two operators' load and under CPU and
# disk contention, the current version against BENCH_CLOSES_BEFORE's (bench/README.md, issue 39).
# Needs what `npm test` needs, plus Debian's stress-ng for the contention (installed here when root;
# without it the benchmark says so and runs its Node stand-in). Stopped early (Ctrl-C, or pnpm or the
# benchmark killed), it leaves none of its processes running, stress-ng included.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
bash "$ROOT/scripts/services.sh"
ensure_debian_program stress-ng stress-ng || say "the contention runs bench/src/closes/hog.ts instead of stress-ng"
say "benchmark: large closes, current${BENCH_CLOSES_BEFORE:+ against $BENCH_CLOSES_BEFORE}; settings in bench/README.md"
cd "$ROOT" && exec node --import tsx bench/src/closes/run.ts
