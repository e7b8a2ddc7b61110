#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster from Debian's postgresql package in a
# temporary directory, listening on 127.0.0.1 only, and prints the URL of an
# empty database in it. Used by .ci/run for the server's PostgreSQL tests.
#   usage: server/scripts/postgres.sh start DIR PORT   -> prints postgres://…
#          server/scripts/postgres.sh stop DIR
# As root the cluster runs as the `postgres` user (initdb refuses root).
set -euo pipefail
action="$1"
dir="$2"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$bin" ] || { echo "no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql)" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$action" in
  start)
    port="$3"
    mkdir -p "$dir"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-h 127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=300" start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres swaproute_test
    echo "postgres://postgres@127.0.0.1:$port/swaproute_test"
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 1 ;;
esac
