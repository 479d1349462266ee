#!/usr/bin/env bash
# The first command a new user runs: prepares the machine, then brings the system up.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bash "$ROOT/scripts/prepare.sh"
cd "$ROOT"
say "ledger ready; playing a demo through the wallet verbs"
pnpm --silent --filter @wallet/ledger run demo
pnpm --silent ledger:verify
