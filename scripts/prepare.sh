#!/usr/bin/env bash
# Everything a fresh machine with only Node and npm needs before the system runs or tests:
# pnpm, dependencies, MariaDB and Redis up, migrations applied.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
prepare_machine
