#!/usr/bin/env bash
# The deployment recipe of docs/DEPLOY.md, run as written (its code blocks
# are read from the file): PostgreSQL with the recipe's settings, three
# nodes started with the systemd unit's command line (the unit itself is
# checked by systemd-analyze), HAProxy with the recipe's configuration;
# then games are played through the proxy while every node is restarted
# in turn (SIGTERM, as systemd does), and every acknowledged move is
# checked afterwards. Needs postgresql, haproxy, curl and systemd-analyze
# (scripts/install-test-deps).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/oware-bin.sh
oware_bin
doc=docs/DEPLOY.md
work="$(mktemp -d /tmp/oware-deploy.XXXXXX)"
pids=()
bin="$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
# As the postgres user when root (PostgreSQL refuses root), from / (it may
# not enter the caller's folder).
as_pg() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    as_pg "$bin/pg_ctl" -D "$work/pg" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "test-deploy: FAIL: $*" >&2; exit 1; }

# A fenced block of the recipe, by its language tag (the first one).
block() { awk -v tag="$1" '$0 == "```" tag {on=1; next} on && $0 == "```" {exit} on {print}' "$doc"; }

# Free ports: the recipe's 8080-8083 become base+0..3.
base=$((21000 + RANDOM % 20000))
ports() { sed -e "s/:8080/:$base/g" -e "s/:8081/:$((base + 1))/g" \
              -e "s/:8082/:$((base + 2))/g" -e "s/:8083/:$((base + 3))/g"; }

# 1. The unit file is valid for systemd.
block ini | sed -e '/^# \/etc/d' -e "s#/usr/local/bin/oware#$oware#" -e 's/^User=oware/User=root/' \
    > "$work/oware@.service"
grep -q '^ExecStart=' "$work/oware@.service" || fail "no unit in $doc"
cp "$work/oware@.service" "$work/oware@$((base + 1)).service"
systemd-analyze verify "$work/oware@$((base + 1)).service" || fail "systemd-analyze rejects the unit"
echo "test-deploy: the unit passes systemd-analyze verify"

# 2. PostgreSQL with the recipe's settings.
[ "$(id -u)" = 0 ] && chown postgres:postgres "$work"
as_pg "$bin/initdb" --no-sync -A trust -U oware -E UTF8 -D "$work/pg" >/dev/null
block postgresql | as_pg tee -a "$work/pg/postgresql.conf" >/dev/null
pgport=$((base + 10))
as_pg "$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -o "-p $pgport -k $work -c listen_addresses=127.0.0.1" start >/dev/null \
    || { cat "$work/pg.log"; fail "PostgreSQL does not start with the recipe's settings"; }
as_pg "$bin/createdb" -h 127.0.0.1 -p "$pgport" -U oware oware
export OWARE_DB="postgres://oware@127.0.0.1:$pgport/oware"

# 3. The nodes, with the unit's command line (%i is the port).
exec_start="$(sed -n 's/^ExecStart=//p' "$work/oware@.service")"
node_pid=()
start_node() {
    local i="$1" port=$((base + $1))
    local cmd="${exec_start//%i/$port}"
    cmd="${cmd//\$\{OWARE_DB\}/$OWARE_DB}"
    cmd="${cmd//\/var\/lib\/oware/$work}"
    # shellcheck disable=SC2086
    RUST_LOG=warn $cmd --tablebase-seeds 0 --no-rate-limits >>"$work/node$i.log" 2>&1 &
    node_pid[$i]=$!
    pids+=($!)
    for _ in $(seq 1 150); do
        curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && return 0
        sleep 0.2
    done
    cat "$work/node$i.log"; fail "node $i is not ready"
}
for i in 1 2 3; do start_node "$i"; done
echo "test-deploy: three nodes ready on one PostgreSQL"
curl -fs "http://127.0.0.1:$((base + 1))/healthz" | grep -q ok || fail "/healthz"
metrics="$(curl -fs "http://127.0.0.1:$((base + 1))/metrics")"
for m in oware_games_in_memory oware_sockets oware_moves_total oware_commit_seconds_count oware_pubsub_lag_seconds_max; do
    grep -q "^$m " <<<"$metrics" || fail "/metrics has no $m"
done

# 4. HAProxy with the recipe's configuration.
block haproxy | ports > "$work/haproxy.cfg"
haproxy -c -f "$work/haproxy.cfg" >/dev/null || fail "haproxy rejects the configuration"
haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$base/readyz" >/dev/null && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$base/readyz" >/dev/null || fail "nothing answers through the proxy"
echo "test-deploy: HAProxy passes requests to the nodes"

# 5. Play through the proxy while every node restarts in turn.
"$oware" serve-bench --addr "127.0.0.1:$base" --games 60 --interval-ms 300 \
    --ramp-s 3 --duration-s 20 --threads 2 >"$work/bench.log" 2>&1 &
bench=$!
sleep 6
for i in 1 2 3; do
    kill -TERM "${node_pid[$i]}"
    wait "${node_pid[$i]}" 2>/dev/null || true
    start_node "$i"
    sleep 3
done
wait "$bench" || { cat "$work/bench.log"; fail "acknowledged moves were lost, or the load failed"; }
# The load generator does not reconnect a game cut by a restart (it counts
# an error and opens a new game); what must hold is that no acknowledged
# move is lost.
grep -E "moves acknowledged|durability|errors" "$work/bench.log"
moves="$(sed -n 's/^moves acknowledged: \([0-9]*\).*/\1/p' "$work/bench.log")"
[ "${moves:-0}" -gt 100 ] || fail "too few moves through the proxy ($moves)"
echo "test-deploy: rolling restart under play, no acknowledged move lost: passed"
