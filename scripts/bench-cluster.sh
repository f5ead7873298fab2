#!/usr/bin/env bash
# Benchmark (not a test): `oware serve-bench` over N nodes sharing one
# PostgreSQL on this machine, beside one node on SQLite with the same load.
#
#   scripts/bench-cluster.sh [GAMES] [NODES] [--split]
#
# Starts a throw-away PostgreSQL cluster (fsync on, synchronous_commit on:
# every acknowledged move is durable), NODES release `oware serve` nodes on
# loopback, runs the load, then the same load against one SQLite node.
# Figures are recorded in docs/DEPLOY.md. SKIP_SQLITE=1 leaves out the
# SQLite run; RAMP_S and DURATION_S change the ramp and the measurement.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-5000}"
nodes="${2:-3}"
split="${3:-}"
ramp="${RAMP_S:-40}"
duration="${DURATION_S:-60}"
cargo build --release -q -p oware
oware="$PWD/target/release/oware"
bin="$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
work="$(mktemp -d /tmp/oware-bench.XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    as_pg "$bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
# As the postgres user when root (PostgreSQL refuses root), from / (it may
# not enter the caller's folder).
as_pg() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres:postgres "$work"
port=$((20000 + RANDOM % 20000))
as_pg "$bin/initdb" -A trust -U oware -E UTF8 -D "$work/pg" >/dev/null
as_pg "$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -o \
    "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=512MB -c synchronous_commit=on -c fsync=on -c max_wal_size=2GB -c checkpoint_timeout=15min" \
    start >/dev/null
as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U oware oware
url="postgres://oware@127.0.0.1:$port/oware"
addrs=()
node_pids=()
for i in $(seq 1 "$nodes"); do
    a="127.0.0.1:$((port + i))"
    RUST_LOG=warn "$oware" serve --addr "$a" --db "$url" --db-pool 16 \
        --no-rate-limits --tablebase-seeds 0 >/dev/null 2>"$work/node$i.log" &
    pids+=($!)
    node_pids+=($!)
    addrs+=("$a")
done
for a in "${addrs[@]}"; do
    for _ in $(seq 1 100); do curl -fs "http://$a/readyz" >/dev/null && break; sleep 0.1; done
done
# CPU seconds used so far by PostgreSQL's processes.
pg_cpu() {
    local t=0
    for p in $(pgrep -u postgres postgres || true); do
        t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
    done
    echo "$t"
}
echo "== $nodes nodes on PostgreSQL, $games games${split:+, players split over two nodes}"
pg0="$(pg_cpu)"; t0=$SECONDS
"$oware" serve-bench --addr "$(IFS=,; echo "${addrs[*]}")" --games "$games" \
    --ramp-s "$ramp" --duration-s "$duration" --threads 2 $split \
    --server-pid "$(IFS=,; echo "${node_pids[*]}")"
pg1="$(pg_cpu)"; t1=$SECONDS
echo "PostgreSQL CPU over the whole run (ramp, measure, checks): $(( (pg1 - pg0) / $(getconf CLK_TCK) )) s in $((t1 - t0)) s"
for a in "${addrs[@]}"; do
    echo "-- metrics of $a"
    curl -fs "http://$a/metrics" | grep -E "^oware_(moves_total|notices_total|pubsub_lag_seconds_max|commit_seconds_(sum|count)) "
done
for p in "${node_pids[@]}"; do kill "$p"; done
[ -n "${SKIP_SQLITE:-}" ] && exit 0
echo "== one node on SQLite, $games games"
"$oware" serve --addr "127.0.0.1:$((port + 100))" --db "$work/games.sqlite3" \
    --no-rate-limits --tablebase-seeds 0 >/dev/null 2>"$work/sqlite.log" &
pids+=($!)
sqlite_pid=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$((port + 100))/readyz" >/dev/null && break; sleep 0.1; done
"$oware" serve-bench --addr "127.0.0.1:$((port + 100))" --games "$games" \
    --ramp-s "$ramp" --duration-s "$duration" --threads 2 --server-pid "$sqlite_pid"
