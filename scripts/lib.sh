# Shared by the scripts in this folder: logging, pnpm bootstrap, and the service addresses.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PNPM_VERSION="$(node -p "require('$ROOT/package.json').packageManager.split('@')[1]")"
export DATABASE_URL="${DATABASE_URL:-mysql://root@127.0.0.1:3306/wallet}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
fail() { printf '\033[31mxx  %s\033[0m\n' "$*" >&2; exit 1; }

# host and port of a URL like mysql://user@host:port/db
url_host() { node -e "const u=new URL(process.argv[1]);console.log(u.hostname)" "$1"; }
url_port() { node -e "const u=new URL(process.argv[1]);console.log(u.port||process.argv[2])" "$1" "$2"; }
reachable() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# pnpm, pinned by package.json's packageManager. Corepack's download is not relied on.
ensure_pnpm() {
  if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]; then return; fi
  if [ -x "$ROOT/.tools/node_modules/.bin/pnpm" ]; then export PATH="$ROOT/.tools/node_modules/.bin:$PATH"; return; fi
  say "installing pnpm $PNPM_VERSION"
  if ! npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1; then
    # No permission for a global install: keep a private copy in the checkout.
    npm install --prefix "$ROOT/.tools" "pnpm@$PNPM_VERSION" >/dev/null || fail "could not install pnpm $PNPM_VERSION with npm"
    export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
  fi
}

ensure_dependencies() {
  ensure_pnpm
  say "installing dependencies (pnpm install)"
  (cd "$ROOT" && pnpm install --frozen-lockfile --reporter=silent) || fail "pnpm install failed"
}

# Everything a fresh machine with only Node and npm needs before the system runs or tests: pnpm,
# dependencies, MariaDB and Redis up, migrations applied. Called in the caller's own shell (never as
# `bash prepare.sh` from another script): a pnpm installed privately into .tools is found through
# the PATH this exports, which a child shell would take with it when it ends.
prepare_machine() {
  ensure_dependencies
  bash "$ROOT/scripts/services.sh"
  say "applying migrations to $(url_host "$DATABASE_URL")"
  (cd "$ROOT" && pnpm --silent db:migrate)
}

# A Debian package the tests need (promtool and the Prometheus server: `prometheus`; the snapshot
# renderer: `chromium`). Installed when we may (root with apt-get). A user without root gets the
# package's own files unpacked into .tools/debian (`apt-get download` + `dpkg-deb -x` need no root),
# which serves programs that are one self-contained binary, as promtool and prometheus are.
# Returns non-zero when the program is still missing, after telling the caller how to get it.
ensure_debian_program() {
  local program="$1" package="$2" unpacked="$ROOT/.tools/debian"
  [ -d "$unpacked/usr/bin" ] && export PATH="$PATH:$unpacked/usr/bin"
  command -v "$program" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing $program (Debian package $package)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package"; } >/dev/null \
      || say "could not install the $package package"
  elif command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
    say "unpacking $program from Debian's $package package into .tools/debian (no root needed)"
    local download
    download="$(mktemp -d)"
    { (cd "$download" && apt-get download -qq "$package") && dpkg-deb -x "$download"/"$package"_*.deb "$unpacked"; } >/dev/null 2>&1 \
      || say "could not download the $package package"
    rm -rf "$download"
    [ -d "$unpacked/usr/bin" ] && export PATH="$PATH:$unpacked/usr/bin"
  fi
  command -v "$program" >/dev/null 2>&1 && return 0
  say "$program is missing: sudo apt-get install --no-install-recommends $package (Debian/Ubuntu), or put $program on the PATH"
  return 1
}

# A program an operator's script needs on the machine it runs on (mariadb-backup, mariadb-binlog),
# checked, never installed: installing packages on a database host at the moment of a backup or a
# restore is the operator's decision (docs/runbook.md lists them as prerequisites). Fails naming the
# Debian package. Programs unpacked by the test scripts into .tools/debian count (a user without root).
require_program() {
  local program="$1" package="$2" unpacked="$ROOT/.tools/debian/usr/bin"
  [ -d "$unpacked" ] && export PATH="$PATH:$unpacked"
  command -v "$program" >/dev/null 2>&1 \
    || fail "$program is missing: install the $package package first (apt-get install --no-install-recommends $package)"
}

# A private [client] option file for the MariaDB tools, from a mysql://user:password@host:port URL, so
# a password never shows on a command line (ps). Prints its path; the caller removes it. The tools are
# given it as --defaults-file (their first option), the only option file they read: with
# --defaults-extra-file, a ~/.my.cnf read after it (root's, on a database host) would log them in as
# its user instead.
mariadb_options_file() {
  local file
  file="$(mktemp)"
  chmod 600 "$file"
  # The URL goes through the environment: node's own command line is visible to ps too.
  # Quoted values: a # in a password would start a comment; a double quote or a backslash is refused.
  MARIADB_OPTIONS_URL="$1" node -e '
    const u = new URL(process.env.MARIADB_OPTIONS_URL);
    const [user, password] = [u.username, u.password].map(decodeURIComponent);
    if (/["\\]/.test(user + password)) {
      console.error("a user or password with a double quote or a backslash cannot go in an option file");
      process.exit(1);
    }
    console.log(["[client]", `host=${u.hostname}`, `port=${u.port || 3306}`,
      `user="${user}"`, `password="${password}"`].join("\n"));
  ' >"$file" || { rm -f "$file"; fail "could not read the database URL"; }
  echo "$file"
}

# The backup scripts (db-backup.sh, db-restore.sh) are MariaDB's: mariadb-backup, mariadb-binlog and
# MariaDB's GTIDs (domain-server-sequence). `require_mariadb_server <url> <script>` reads the version
# the server at a mysql:// URL announces in its handshake, before any login (so a MySQL account the
# MariaDB client cannot log in with is still told apart), and exits 2 with what to use instead when
# it is MySQL (8.4, Aurora, Cloud SQL, RDS) or TiDB. A server that cannot be reached or answers no
# handshake is not judged here: the script goes on, and its tool says why it cannot connect. The
# connection closes after the greeting: the server counts it in Aborted_connects, and the tool's login
# that follows clears the host's count of connection errors (max_connect_errors).
# Sets MARIADB_SERVER_CONFIRMED=1 once the server announced MariaDB.
require_mariadb_server() {
  local version
  version="$(SERVER_URL="$1" node -e '
    const u = new URL(process.env.SERVER_URL);
    const socket = require("node:net").connect({ host: u.hostname, port: Number(u.port || 3306) });
    socket.setTimeout(5000, () => process.exit(0));
    socket.on("error", () => process.exit(0));
    // The first packet: 3 bytes of length, 1 of sequence, protocol version 10, the version up to a NUL.
    socket.once("data", (data) => {
      if (data.length > 5 && data[4] === 10) process.stdout.write(data.subarray(5, data.indexOf(0, 5)).toString("latin1"));
      socket.destroy();
    });
  ' 2>/dev/null)" || version=""
  case "$version" in
    "") return 0 ;;
    *MariaDB*) MARIADB_SERVER_CONFIRMED=1 ;;
    *TiDB*)
      printf '\033[31mxx  %s\033[0m\n' "$(url_host "$1") is TiDB ($version), not MariaDB: $2 is for MariaDB (mariadb-backup, mariadb-binlog, MariaDB GTIDs); back up TiDB with BR (docs/runbook.md, \"On TiDB\"); nothing was done" >&2
      exit 2 ;;
    *)
      printf '\033[31mxx  %s\033[0m\n' "$(url_host "$1") is MySQL ($version), not MariaDB: $2 is for MariaDB (mariadb-backup, mariadb-binlog, MariaDB GTIDs); on MySQL 8.4 use Percona XtraBackup and mysqlbinlog, on RDS, Aurora or Cloud SQL the provider's point-in-time restore (docs/runbook.md, \"On MySQL 8.4\" and \"On RDS, Aurora and Cloud SQL\"); nothing was done" >&2
      exit 2 ;;
  esac
}

# The suites in faults/ start MariaDB, Redis (and more) servers of their own: their programs must be
# installed, though never running. `require_programs "<suite>" <program>...` fails naming what is missing.
require_programs() {
  local suite="$1" program
  shift
  for program in "$@"; do
    command -v "$program" >/dev/null 2>&1 || fail "$program is missing; the $suite runs servers of its own.
    Install them (Debian: apt-get install -y mariadb-server redis-server prometheus)."
  done
}

# Runs one vitest project of faults/ (`run_suite <project> [vitest args]`) and ends with one plain line
# any CI can read: `<project>: N passed, M failed`. Exits with vitest's status.
run_suite() {
  local project="$1" report status=0
  shift
  report="$(mktemp -t "vitest-$project-XXXXXX.json")"
  pnpm exec vitest run --project "$project" --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
  node -e "const r=require(process.argv[1]);console.log(process.argv[2]+': '+r.numPassedTests+' passed, '+r.numFailedTests+' failed')" "$report" "$project" 2>/dev/null \
    || echo "$project: 0 passed, 1 failed"
  rm -f "$report"
  return "$status"
}
