#!/usr/bin/env bash
# `pnpm test:observability`: every dashboard panel and alert rule against a real Prometheus server
# scraping the running system under load and under the runbook's faults (faults/src/observability,
# faults/README.md).
# Like the fault suite it runs MariaDB (a primary and a semi-synchronous replica), Redis, Prometheus and
# mysqld_exporter processes of its own, so it needs their programs installed but never touches the
# machine's servers. About six minutes.
#   OBSERVABILITY_UNTIL=firing        hold each fault until its alerts fire (how the runbook's timings
#                                     were measured; about fifteen minutes)
#   OBSERVABILITY_SNAPSHOT_FILE=F     keep every panel's data of the run in F (pnpm dashboards:snapshot)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_dependencies
ensure_debian_program prometheus prometheus || fail "the observability suite needs the Prometheus server"
ensure_debian_program prometheus-mysqld-exporter prometheus-mysqld-exporter \
  || fail "the observability suite needs mysqld_exporter (one per database server, as docs/databases.md runs it)"
require_programs "observability suite" /usr/sbin/mariadbd mariadb-install-db redis-server promtool
cd "$ROOT"
say "running the observability suite against a real Prometheus"
exec pnpm exec vitest run --project observability "$@"
