#!/usr/bin/env bash
# The clock sweep (issue 20): runs the unit and server tests with the machine's date moved, to find the tests that
# pass only on the day they were written. Debian's faketime moves the clock of Node (and so of PGlite, which runs
# inside it) and of a throw-away PostgreSQL cluster started for the run; monotonic clocks are left alone so timers,
# timeouts and sleeps still work.
#
#   npm run test:clock -- +30d        (a month ahead; also +1y, -2d, +36h: libfaketime's relative offsets)
#   npm run test:clock -- +1y apps/server/src/modules/payments   (extra arguments go to vitest)
set -euo pipefail
cd "$(dirname "$0")/../../.."

offset="${1:-}"
if [[ ! "$offset" =~ ^[+-][0-9]+[smhdy]?$ ]]; then
  echo "usage: npm run test:clock -- +30d [vitest arguments]   (an offset such as +30d, +1y, -2d, +36h)" >&2
  exit 2
fi
shift
command -v faketime >/dev/null 2>&1 || { echo "faketime is missing: apt-get install faketime" >&2; exit 1; }

export FAKETIME_DONT_FAKE_MONOTONIC=1
pg_bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
PG_BIN="$(pg_bin_dir)"
[ -x "$PG_BIN/initdb" ] || { echo "PostgreSQL's server binaries are missing: apt-get install postgresql" >&2; exit 1; }

PG_DIR="$(mktemp -d /tmp/carteirinha-clock-pg.XXXXXX)"
PG_PORT="${CLOCK_PG_PORT:-54339}"
run_pg() { if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "$(id -u)" = "0" ]; then chown postgres:postgres "$PG_DIR"; fi
cleanup() {
  run_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
trap cleanup EXIT
run_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
# The cluster's own clock moves too: now(), current_date and the timestamps it writes are of the moved day. The
# postmaster runs under faketime directly: pg_ctl -w compares the pid file's start time with its own clock, and under
# a moved clock it waits for ever.
run_pg faketime -f "$offset" "$PG_BIN/postgres" -D "$PG_DIR/data" -c listen_addresses=127.0.0.1 -c port="$PG_PORT" \
  -c unix_socket_directories="$PG_DIR" -c fsync=off -c max_connections=200 >"$PG_DIR/postgres.log" 2>&1 &
for _ in $(seq 1 100); do
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" && break
  sleep 0.2
done
"$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" || { cat "$PG_DIR/postgres.log" >&2; exit 1; }
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"

echo "Clock moved $offset: Node says $(faketime -f "$offset" node -e 'console.log(new Date().toISOString())'), PostgreSQL says $(psql -qtA "$TEST_DATABASE_URL" -c 'select now()') (really $(date -u '+%d/%m/%Y'))"
# PostgreSQL's own timers (lock_timeout, statement_timeout) never fire under libfaketime, whatever the offset: the
# one test that waits for the server's lock_timeout to give up (the webhook crash test) cannot run here. It carries
# no date of its own; it runs in npm test.
CLOCK_SWEEP_EXCLUDE='apps/server/src/modules/payments/webhook-crash.postgres.test.ts' \
  faketime -f "$offset" npx vitest run --project unit --project server-pglite --project server-postgres "$@"
