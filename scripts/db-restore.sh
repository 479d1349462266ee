#!/usr/bin/env bash
# Restores the ledger's MariaDB to a chosen moment from a full backup and the archived binary logs
# (scripts/db-backup.sh; the whole procedure: docs/runbook.md, "Restoring the ledger to a point in time";
# tested by faults/src/faults/backup-restore.faults.test.ts). Two steps, with the server started between them:
#
#   db-restore.sh files <backup-dir> <empty-datadir>
#       mariadb-backup --prepare (the backup made consistent, in place: keep a copy if you may need it
#       again unprepared), then --copy-back into the new server's empty data directory. Then chown it
#       to the server's user and start the server with no client able to reach it.
#   db-restore.sh replay <backup-dir> <archive-dir> [--until-gtid <d-s-n> | --until-time '<UTC time>']
#       replays the archived binary logs into the started server (RESTORE_DATABASE_URL=mysql://root:…@
#       host:port, an account that may set GTIDs: root), from the backup's GTID (exclusive) up to and
#       including --until-gtid, or to the last event before --until-time ('YYYY-MM-DD HH:MM:SS', UTC),
#       or everything archived when neither is given.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  fail "usage: db-restore.sh files <backup-dir> <empty-datadir>
       db-restore.sh replay <backup-dir> <archive-dir> [--until-gtid <gtid> | --until-time '<UTC time>']"
}
[ $# -ge 3 ] || usage
backup="$2"
[ -f "$backup/xtrabackup_binlog_info" ] || fail "$backup is no mariadb-backup of a server with binary logs (no xtrabackup_binlog_info)"

case "$1" in
  files)
    ensure_debian_program mariadb-backup mariadb-backup || exit 1
    datadir="$3"
    [ ! -e "$datadir" ] || [ -z "$(ls -A "$datadir")" ] || fail "$datadir is not empty: copy-back needs an empty data directory"
    say "preparing $backup (log: $backup.prepare.log)"
    mariadb-backup --prepare --target-dir="$backup" >"$backup.prepare.log" 2>&1 \
      || fail "mariadb-backup --prepare failed: $(tail -3 "$backup.prepare.log")"
    say "copying it back into $datadir (log: $backup.copy-back.log)"
    mkdir -p "$datadir"
    mariadb-backup --copy-back --target-dir="$backup" --datadir="$datadir" >"$backup.copy-back.log" 2>&1 \
      || fail "mariadb-backup --copy-back failed: $(tail -3 "$backup.copy-back.log")"
    say "done: chown -R the data directory to the server's user, start the server, then: db-restore.sh replay"
    ;;
  replay)
    ensure_debian_program mariadb-binlog mariadb-client || exit 1
    archive="$3"
    shift 3
    # xtrabackup_binlog_info: <binary log file> <position> <GTID of the last transaction in the backup>
    read -r first_file _position backup_gtid <"$backup/xtrabackup_binlog_info"
    [ -n "${backup_gtid:-}" ] || fail "$backup/xtrabackup_binlog_info names no GTID"
    until=()
    case "${1:-}" in
      --until-gtid) [ -n "${2:-}" ] || usage; until=(--stop-position="$2") ;;
      --until-time) [ -n "${2:-}" ] || usage; until=(--stop-datetime="$2") ;;
      "") ;;
      *) usage ;;
    esac
    if [ "${1:-}" = --until-gtid ] && [ "$2" = "$backup_gtid" ]; then
      say "the backup ends at $backup_gtid itself: nothing to replay"
      exit 0
    fi
    # Every archived file from the one the backup's position is in, in order.
    files=()
    while IFS= read -r name; do
      [[ "$name" < "$first_file" ]] || files+=("$archive/$name")
    done < <(find "$archive" -maxdepth 1 -type f -name '*.[0-9][0-9][0-9][0-9][0-9][0-9]' -printf '%f\n' | sort)
    [ ${#files[@]} -gt 0 ] || fail "no archived binary log from $first_file on in $archive"
    [ -n "${RESTORE_DATABASE_URL:-}" ] || fail "RESTORE_DATABASE_URL is not set (mysql://root:password@host:port)"
    options_file="$(mariadb_options_file "$RESTORE_DATABASE_URL")"
    trap 'rm -f "$options_file"' EXIT
    say "replaying ${#files[@]} binary log file(s) after GTID $backup_gtid ${until[*]:-(to the end of the archive)}"
    # GTID positions: the start is exclusive (the backup holds it), a --stop-position GTID inclusive.
    # --stop-datetime is read in the local time zone: UTC here, as the wallet stores its times.
    TZ=UTC mariadb-binlog --start-position="$backup_gtid" "${until[@]}" "${files[@]}" \
      | mariadb --defaults-extra-file="$options_file" --binary-mode \
      || fail "the replay stopped with an error: the server holds the backup and part of the binary logs"
    say "replayed; now: pnpm ledger:verify against it, then the runbook's reconciliation"
    ;;
  *) usage ;;
esac
