#!/usr/bin/env bash
# Restores the ledger's MariaDB to a chosen moment from a full backup and the archived binary logs
# (scripts/db-backup.sh; the whole procedure: docs/runbook.md, "Restoring the ledger to a point in time";
# tested by faults/src/faults/backup-restore.faults.test.ts and backup-scripts.faults.test.ts). MariaDB
# only: a backup made on MySQL (its GTID a MySQL GTID set) or a replay into a MySQL or TiDB server exits
# 2 with nothing done (the runbook's "On MySQL 8.4" and "On TiDB" say what to use there):
#
#   db-restore.sh point <archive-dir> ['<UTC time>']
#       prints the GTID of the last transaction the archive holds that was logged at or before that
#       time (the binary log counts in whole seconds: a transaction of the same second is kept), or of
#       its last transaction when no time is given: the point to replay to (--until-gtid).
#   db-restore.sh files <backup-dir> <empty-datadir>
#       mariadb-backup --prepare (the backup made consistent, in place: keep a copy if you may need it
#       again unprepared), then --copy-back into the new server's empty data directory. Then chown it
#       to the server's user and start the server with no client able to reach it.
#   db-restore.sh replay <backup-dir> <archive-dir> [--until-gtid <d-s-n> | --until-time '<UTC time>']
#       replays the archived binary logs into the started server (RESTORE_DATABASE_URL=mysql://root:…@
#       host:port, an account that may set GTIDs: root), from the backup's GTID (exclusive) up to and
#       including --until-gtid, or to the last event before --until-time ('YYYY-MM-DD HH:MM:SS', UTC),
#       or everything archived when neither is given. The server must log binary logs (the primary's
#       configuration): the replayed transactions keep their GTIDs there, so @@gtid_binlog_pos tells
#       how far it got, and a server already replayed into is refused with nothing applied.
# Needs mariadb-backup (files) and mariadb-client's mariadb-binlog (point, replay): checked, never installed here.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  fail "usage: db-restore.sh point <archive-dir> ['<UTC time>']
       db-restore.sh files <backup-dir> <empty-datadir>
       db-restore.sh replay <backup-dir> <archive-dir> [--until-gtid <gtid> | --until-time '<UTC time>']"
}

# Every archived binary log in the archive, in order, whatever the server's log_bin base name.
archived_files() {
  find "$1" -maxdepth 1 -type f -name '*.[0-9][0-9][0-9][0-9][0-9][0-9]' -printf '%f\n' | sort
}

# The backup's own record: <binary log file> <position> <GTID of the last transaction in the backup>.
backup_position() {
  [ -f "$1/xtrabackup_binlog_info" ] || fail "$1 is no mariadb-backup of a server with binary logs (no xtrabackup_binlog_info)"
  # Percona XtraBackup on MySQL writes the same file, its GTID a MySQL set (uuid:1-n): not ours to restore.
  local gtid
  read -r _ _ gtid <"$1/xtrabackup_binlog_info" || true
  if [[ "${gtid:-}" == *:* ]]; then
    printf '\033[31mxx  %s\033[0m\n' "$1 was made on MySQL (its GTID is $gtid): db-restore.sh restores MariaDB; on MySQL 8.4 use xtrabackup --prepare/--copy-back and mysqlbinlog (docs/runbook.md, \"On MySQL 8.4\"); nothing was done" >&2
    exit 2
  fi
}

# The sequence number of domain $2 in a GTID list ("0-1-57,1-3-9"), or nothing.
seq_in_domain() {
  local entry
  for entry in ${1//,/ }; do
    [ "${entry%%-*}" != "$2" ] || { echo "${entry##*-}"; return; }
  done
}

# The restored server's @@gtid_binlog_pos (and whether it logs at all), through the option file.
server_gtid() { mariadb --defaults-file="$options_file" -N -e 'SELECT @@gtid_binlog_pos'; }

[ $# -ge 2 ] || usage
case "$1" in
  point)
    require_program mariadb-binlog mariadb-client
    archive="$2"
    at="${3:-}"
    files=()
    while IFS= read -r name; do files+=("$archive/$name"); done < <(archived_files "$archive")
    [ ${#files[@]} -gt 0 ] || fail "no archived binary log in $archive"
    # yymmddHHMMSS, as the binary log's event headers give their time (UTC below).
    limit=999999999999
    if [ -n "$at" ]; then
      limit="$(date -u -d "$at" +%y%m%d%H%M%S 2>/dev/null)" || fail "not a time: $at (ISO 8601 in UTC, e.g. 2026-11-26T01:49:56.250Z)"
    fi
    # A transaction counts once its COMMIT is archived (a DDL is one event): a last transaction the
    # archiver got only part of is no point to replay to. The newest in log order whose header time is
    # at or before the limit wins: every commit acknowledged before that time is then included.
    found="$(TZ=UTC mariadb-binlog --base64-output=decode-rows "${files[@]}" | awk -v limit="$limit" '
      /^#[0-9]{6} +[0-9]+:[0-9][0-9]:[0-9][0-9] server id .*GTID [0-9]+-[0-9]+-[0-9]+/ {
        split($2, hms, ":")
        key = substr($1, 2) sprintf("%02d%02d%02d", hms[1], hms[2], hms[3])
        match($0, /GTID [0-9]+-[0-9]+-[0-9]+/)
        gtid = substr($0, RSTART + 5, RLENGTH - 5)
        pending = ""
        if ($0 ~ / ddl( |$)/) { if (key + 0 <= limit + 0) { last = gtid; lastkey = key } }
        else { pending = gtid; pendingkey = key }
        next
      }
      /^COMMIT\/\*!\*\/;$/ {
        if (pending != "" && pendingkey + 0 <= limit + 0) { last = pending; lastkey = pendingkey }
        pending = ""
      }
      END { if (last != "") print last, lastkey }')"
    [ -n "$found" ] || fail "the archive holds no whole transaction logged at or before ${at:-its end}"
    read -r gtid key <<<"$found"
    logged="20${key:0:2}-${key:2:2}-${key:4:2} ${key:6:2}:${key:8:2}:${key:10:2}"
    echo "the last transaction logged at or before ${at:-the end of the archive} (whole seconds) is $gtid, logged $logged UTC" >&2
    echo "$gtid"
    ;;
  files)
    [ $# -eq 3 ] || usage
    backup="$2"
    backup_position "$backup"
    require_program mariadb-backup mariadb-backup
    datadir="$3"
    [ ! -e "$datadir" ] || [ -z "$(ls -A "$datadir")" ] || fail "$datadir is not empty: copy-back needs an empty data directory"
    say "preparing $backup (log: $backup.prepare.log)"
    mariadb-backup --prepare --target-dir="$backup" >"$backup.prepare.log" 2>&1 \
      || fail "mariadb-backup --prepare failed: $(tail -3 "$backup.prepare.log" | tr '\n' ' ')"
    say "copying it back into $datadir (log: $backup.copy-back.log)"
    mkdir -p "$datadir"
    mariadb-backup --copy-back --target-dir="$backup" --datadir="$datadir" >"$backup.copy-back.log" 2>&1 \
      || fail "mariadb-backup --copy-back failed: $(tail -3 "$backup.copy-back.log" | tr '\n' ' ')"
    say "done: chown -R the data directory to the server's user, start the server, then: db-restore.sh replay"
    ;;
  replay)
    [ $# -ge 3 ] || usage
    backup="$2"
    backup_position "$backup"
    require_program mariadb-binlog mariadb-client
    archive="$3"
    shift 3
    read -r first_file _position backup_gtid <"$backup/xtrabackup_binlog_info"
    [ -n "${backup_gtid:-}" ] || fail "$backup/xtrabackup_binlog_info names no GTID"
    until=()
    until_gtid=""
    case "${1:-}" in
      --until-gtid) [ -n "${2:-}" ] || usage; until_gtid="$2"; until=(--stop-position="$2") ;;
      --until-time) [ -n "${2:-}" ] || usage; until=(--stop-datetime="$2") ;;
      "") ;;
      *) usage ;;
    esac
    if [ "$until_gtid" = "$backup_gtid" ]; then
      say "the backup ends at $backup_gtid itself: nothing to replay"
      exit 0
    fi
    # Every archived file from the one the backup's position is in, in order.
    files=()
    while IFS= read -r name; do
      [[ "$name" < "$first_file" ]] || files+=("$archive/$name")
    done < <(archived_files "$archive")
    [ ${#files[@]} -gt 0 ] || fail "no archived binary log from $first_file on in $archive"
    [ -n "${RESTORE_DATABASE_URL:-}" ] || fail "RESTORE_DATABASE_URL is not set (mysql://root:password@host:port)"
    require_mariadb_server "$RESTORE_DATABASE_URL" db-restore.sh
    options_file="$(mariadb_options_file "$RESTORE_DATABASE_URL")"
    errors="$(mktemp -d)"
    trap 'rm -rf "$options_file" "$errors"' EXIT
    [ "$(mariadb --defaults-file="$options_file" -N -e 'SELECT @@log_bin')" = 1 ] \
      || fail "the server does not log binary logs: start it with the primary's configuration (log_bin), so the replay is logged and can be checked"
    # A server replayed into before already holds what the replay would apply: every row would be a
    # duplicate (1062), after part of the rows of a transaction. Refused before anything is sent.
    before="$(server_gtid)"
    for entry in ${backup_gtid//,/ }; do
      domain="${entry%%-*}"
      have="$(seq_in_domain "$before" "$domain")"
      [ -n "$have" ] && [ "$have" -gt "${entry##*-}" ] || continue
      target="$(seq_in_domain "$until_gtid" "$domain")"
      if [ -n "$target" ] && [ "$have" -ge "$target" ]; then
        fail "the server is already at GTID $before, at or past $until_gtid: it was replayed into before; nothing applied"
      fi
      fail "the server already holds transactions after the backup's $backup_gtid (@@gtid_binlog_pos $before): replaying again would apply them twice; nothing applied (copy the backup onto an empty data directory to start over)"
    done
    say "replaying ${#files[@]} binary log file(s) after GTID $backup_gtid ${until[*]:-(to the end of the archive)}"
    # GTID positions: the start is exclusive (the backup holds it), a --stop-position GTID inclusive.
    # --stop-datetime is read in the local time zone: UTC here, as the wallet stores its times.
    # The client's errors are kept apart: a failing row event is echoed as a long base64 BINLOG
    # statement, of no use to the reader; its ERROR line says what happened.
    if ! TZ=UTC mariadb-binlog --start-position="$backup_gtid" "${until[@]}" "${files[@]}" 2>"$errors/binlog" \
      | mariadb --defaults-file="$options_file" --binary-mode 2>"$errors/client"; then
      after="$(server_gtid)"
      why="$( (tail -3 "$errors/binlog"; grep '^ERROR' "$errors/client" | tail -3) | tr '\n' ' ')"
      if [ "$after" = "$before" ]; then
        fail "the replay stopped with an error, nothing applied (@@gtid_binlog_pos still ${before:-empty}): $why"
      fi
      fail "the replay stopped with an error: the server holds the backup and the transactions up to @@gtid_binlog_pos $after: $why"
    fi
    say "replayed: the server is at @@gtid_binlog_pos $(server_gtid); now: pnpm ledger:verify against it, then the runbook's reconciliation"
    ;;
  *) usage ;;
esac
