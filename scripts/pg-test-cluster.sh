#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on loopback, for tests (docs/OPERATIONS.md "PostgreSQL").
#
#   pg-test-cluster.sh start [OWNER_PID] → prints the cluster's folder, then its URL
#                                          (postgresql://postgres@127.0.0.1:PORT/postgres)
#   pg-test-cluster.sh stop DIR           → stops the server started in DIR and removes DIR
#
# A test process passes its pid as OWNER_PID and stops its cluster at exit; a process that
# crashed cannot, so every `start` first stops the clusters whose owner is gone.
#
# initdb runs in a fresh temporary folder; the server listens on 127.0.0.1 only, on a free port,
# with trust authentication for 127.0.0.1/32 and the cluster's own Unix socket (inside DIR) and
# nothing else. initdb refuses to run as root, so under root (CI) the server runs as Debian's
# `postgres` system user through runuser, in a folder that user owns. fsync is off: the data is
# thrown away with the folder.
set -euo pipefail

PG_BIN="${PG_BIN:-}"
if [ -z "$PG_BIN" ]; then
  for d in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ]; then PG_BIN="$d"; break; fi
  done
fi
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
  echo "pg-test-cluster: PostgreSQL server programs not found (Debian: apt-get install postgresql; make deps installs it)" >&2
  exit 2
fi

# The server's user may not be allowed into the caller's folder (CI clones under /root):
# everything runs from /tmp, and the script calls itself by its absolute path.
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd /tmp

as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

case "${1:-}" in
  start)
    for old in /tmp/fleetkit-pg-*/owner.pid; do
      [ -f "$old" ] || continue
      owner="$(cat "$old" 2>/dev/null || true)"
      if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then "$self" stop "$(dirname "$old")" || true; fi
    done
    dir="$(mktemp -d /tmp/fleetkit-pg-XXXXXX)"
    if [ -n "${2:-}" ]; then echo "$2" > "$dir/owner.pid"; fi
    chmod 700 "$dir"
    if [ "$(id -u)" = "0" ]; then chown postgres: "$dir"; fi
    if ! as_owner "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
      cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1
    fi
    as_owner tee "$dir/data/pg_hba.conf" >/dev/null <<'EOF'
# Throwaway test cluster: the cluster's own socket and 127.0.0.1, nothing else.
local all all trust
host  all all 127.0.0.1/32 trust
EOF
    for attempt in 1 2 3 4 5; do
      port="$(free_port)"
      if as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
           -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
           start >/dev/null 2>&1; then
        echo "$dir"
        echo "postgresql://postgres@127.0.0.1:$port/postgres"
        exit 0
      fi
    done
    cat "$dir/server.log" >&2 || true
    rm -rf "$dir"
    exit 1
    ;;
  stop)
    dir="${2:?usage: pg-test-cluster.sh stop DIR}"
    case "$dir" in /tmp/fleetkit-pg-*) ;; *) echo "pg-test-cluster: not a test cluster folder: $dir" >&2; exit 2 ;; esac
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: pg-test-cluster.sh start | stop DIR" >&2
    exit 2
    ;;
esac
