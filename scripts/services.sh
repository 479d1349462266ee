#!/usr/bin/env bash
# Makes sure MariaDB (or MySQL) and Redis answer at DATABASE_URL / REDIS_URL: starts a local
# server that is installed but stopped, and says what to do when none is installed.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

wait_for() { # name host port seconds
  for _ in $(seq 1 $(( $4 * 4 ))); do reachable "$2" "$3" && return 0; sleep 0.25; done
  fail "$1 did not come up on $2:$3 within $4 s"
}

is_local() { [ "$1" = "127.0.0.1" ] || [ "$1" = "localhost" ] || [ "$1" = "::1" ]; }

db_host="$(url_host "$DATABASE_URL")"; db_port="$(url_port "$DATABASE_URL" 3306)"
if reachable "$db_host" "$db_port"; then
  say "MariaDB/MySQL is up on $db_host:$db_port"
elif is_local "$db_host" && [ "$db_port" = 3306 ] && [ -x /usr/sbin/mariadbd ]; then
  say "starting MariaDB"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  wait_for MariaDB "$db_host" "$db_port" 30
elif is_local "$db_host" && [ "$db_port" = 3306 ] && command -v mysqld >/dev/null 2>&1; then
  say "starting MySQL"
  (mysqld --daemonize >/dev/null 2>&1 || mysqld_safe >/dev/null 2>&1 &)
  wait_for MySQL "$db_host" "$db_port" 30
else
  fail "nothing answers at $db_host:$db_port (DATABASE_URL), and no local MariaDB/MySQL can be started for it
    (one is started only when installed here and the URL names 127.0.0.1:3306).
    Install one (Debian: apt-get install -y mariadb-server) or run: docker compose -f infra/docker-compose.yml up -d mysql redis
    or point DATABASE_URL at a server you have."
fi

redis_host="$(url_host "$REDIS_URL")"; redis_port="$(url_port "$REDIS_URL" 6379)"
if reachable "$redis_host" "$redis_port"; then
  say "Redis is up on $redis_host:$redis_port"
elif is_local "$redis_host" && command -v redis-server >/dev/null 2>&1; then
  say "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$redis_port" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for Redis "$redis_host" "$redis_port" 15
else
  fail "nothing answers at $redis_host:$redis_port (REDIS_URL), and no local redis-server is installed to start.
    Install it (Debian: apt-get install -y redis-server) or run: docker compose -f infra/docker-compose.yml up -d redis
    or point REDIS_URL at a server you have."
fi
