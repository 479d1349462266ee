#!/usr/bin/env bash
# Backups of the ledger's MariaDB for a point-in-time restore (docs/runbook.md, "Restoring the ledger to
# a point in time"; tested by faults/src/faults/backup-restore.faults.test.ts). MariaDB only: pointed at
# MySQL (8.4, RDS, Aurora, Cloud SQL) or TiDB, it exits 2 before doing anything and says what to use
# there (the runbook's "On MySQL 8.4" and "On TiDB"). Two parts, both needed:
#
#   db-backup.sh full <target-dir>      a full physical backup (mariadb-backup --backup), taken while the
#                                       wallet runs; it records the binary-log position and GTID it is
#                                       consistent with in <target-dir>/xtrabackup_binlog_info
#   db-backup.sh binlogs <archive-dir>  continuous binary-log archiving (mariadb-binlog --raw --stop-never):
#                                       copies every binary-log event as the server writes it, and
#                                       reconnects when the connection ends; runs until stopped, or
#                                       exits 1 once the server was unreachable for
#                                       BINLOG_ARCHIVER_GIVE_UP_SECONDS (default 60), so that the
#                                       service manager restarting it sees the failure
#
# Connection: BACKUP_DATABASE_URL=mysql://<user>:<password>@<host>:<port> (the password never goes on a
# command line: it is written to a private option file). `full` must run on the database host: it
# copies the data directory's files. The user needs RELOAD, PROCESS, LOCK TABLES, BINLOG MONITOR and
# REPLICATION SLAVE (the runbook has MariaDB's GRANT; BINLOG MONITOR is MariaDB's own privilege). The server needs log_bin, a server_id and
# binlog_format=ROW; keep its binary logs (binlog_expire_logs_seconds) longer than the archiver may lag.
# BINLOG_ARCHIVER_SERVER_ID (default 4242) is the archiver's replica id: unique among the server's replicas.
# Needs mariadb-backup (full) and mariadb-client's mariadb-binlog (binlogs): checked, never installed here.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { fail "usage: db-backup.sh full <target-dir> | db-backup.sh binlogs <archive-dir>"; }
[ $# -eq 2 ] || usage
[ -n "${BACKUP_DATABASE_URL:-}" ] || fail "BACKUP_DATABASE_URL is not set (mysql://user:password@host:port)"
# A MySQL or TiDB server is refused (exit 2) before anything is written; an unreachable one is judged
# once it answers (binlogs), or left to mariadb-backup to report (full).
MARIADB_SERVER_CONFIRMED=""
require_mariadb_server "$BACKUP_DATABASE_URL" db-backup.sh

# A [client] option file with the URL's credentials, readable by us only, removed on exit.
options_file="$(mariadb_options_file "$BACKUP_DATABASE_URL")"
trap 'rm -f "$options_file"' EXIT

case "$1" in
  full)
    require_program mariadb-backup mariadb-backup
    target="$2"
    [ ! -e "$target" ] || [ -z "$(ls -A "$target")" ] || fail "$target is not empty"
    # A dated folder under a root that does not exist yet (the first backup): the log beside it
    # needs its parent before mariadb-backup runs.
    mkdir -p "$(dirname "$target")" || fail "cannot create $(dirname "$target")"
    say "full backup into $target (log: $target.log)"
    status=0
    mariadb-backup --defaults-file="$options_file" --backup --target-dir="$target" >"$target.log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
      why="$(grep -v '^\s*$' "$target.log" | tail -3 | tr '\n' ' ')"
      fail "mariadb-backup failed (exit $status): ${why:-it wrote nothing to $target.log}"
    fi
    # <binary log file> <position> <GTID of the last transaction in the backup>
    say "backup consistent with binary log position: $(cat "$target/xtrabackup_binlog_info")"
    ;;
  binlogs)
    require_program mariadb-binlog mariadb-client
    archive="$2"
    mkdir -p "$archive"
    server_id="${BINLOG_ARCHIVER_SERVER_ID:-4242}"
    give_up="${BINLOG_ARCHIVER_GIVE_UP_SECONDS:-60}"
    [[ "$give_up" =~ ^[1-9][0-9]*$ ]] || fail "BINLOG_ARCHIVER_GIVE_UP_SECONDS is not a whole number of seconds: $give_up"
    say "archiving binary logs into $archive (replica id $server_id); stop with SIGTERM"
    child=""
    trap '[ -z "$child" ] || kill "$child" 2>/dev/null; exit 0' TERM INT
    unreachable_since=""
    while true; do
      [ -n "$MARIADB_SERVER_CONFIRMED" ] || require_mariadb_server "$BACKUP_DATABASE_URL" db-backup.sh
      # Can we log in at all? mariadb-binlog would fail the same way every second, for ever, and a
      # service manager that restarts the archiver "if it exits" would never hear of it.
      if ! problem="$(mariadb --defaults-file="$options_file" --connect-timeout=5 -N -e 'SELECT 1' 2>&1 >/dev/null)"; then
        problem="${problem//$'\n'/ }"
        if [ -z "$unreachable_since" ]; then
          unreachable_since=$SECONDS
          say "cannot reach the server ($problem); trying again every second for up to $give_up s"
        elif ((SECONDS - unreachable_since >= give_up)); then
          fail "binlog archiver: the server was unreachable for $((SECONDS - unreachable_since)) s (BINLOG_ARCHIVER_GIVE_UP_SECONDS=$give_up), giving up: $problem"
        fi
        sleep 1
        continue
      fi
      [ -z "$unreachable_since" ] || say "the server is reachable again after $((SECONDS - unreachable_since)) s"
      unreachable_since=""
      # Resume with the newest file archived (it may be cut short: it is fetched whole again), or the
      # server's oldest when the archive is empty.
      first="$(find "$archive" -maxdepth 1 -type f -name '*.[0-9][0-9][0-9][0-9][0-9][0-9]' -printf '%f\n' | sort | tail -1)"
      if [ -z "$first" ]; then
        first="$(mariadb --defaults-file="$options_file" -N -e 'SHOW BINARY LOGS' | head -1 | cut -f1)" || true
      fi
      [ -n "$first" ] || fail "the server lists no binary log (SHOW BINARY LOGS): is log_bin set, and has the account BINLOG MONITOR?"
      mariadb-binlog --defaults-file="$options_file" --read-from-remote-server --raw --stop-never \
        --stop-never-slave-server-id="$server_id" --result-file="$archive/" "$first" &
      child=$!
      wait "$child" || say "the archiver's connection ended ($?); reconnecting"
      # mariadb-binlog never reconnects by itself (a server restart ends it): this loop does.
      sleep 1
    done
    ;;
  *) usage ;;
esac
