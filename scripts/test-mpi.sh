#!/usr/bin/env bash
# The distributed tablebase build over MPI (docs/SOLVING.md): with K = 1, 2
# and 3 ranks on this machine, the files must equal the single-process
# build's byte for byte; a build that lost a rank must resume from the last
# count finished. Prints each rank's peak memory. Needs Open MPI and
# libclang: scripts/install-test-deps.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mpirun >/dev/null 2>&1; then
    echo "mpirun not found: run scripts/install-test-deps (as root)" >&2
    exit 1
fi
# Counts up to 10 are built whole by rank 0; 11 and up are split.
N="${OWARE_MPI_TEST_SEEDS:-13}"
. scripts/oware-bin.sh
if [ -z "${OWARE_TEST_BIN:-}" ]; then
    # Run on its own: the code behind the feature, which scripts/test-all
    # lints with the workspace (it builds and lints with `oware/mpi`).
    cargo clippy --locked -q -p oware --features mpi --all-targets -- -D warnings
fi
oware_bin --features mpi
BIN=$oware
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# Root may run mpirun only when told so; 3 ranks on 2 cores oversubscribe.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# One thread a rank: the ranks are the parallelism.
export RAYON_NUM_THREADS=1
MPIRUN=(timeout 900 mpirun --oversubscribe --bind-to none)
FAILED=0

same_files() { # DIR: every file of 0..=N equals the single-process one
    local n f ok=1
    for n in $(seq 0 "$N"); do
        f=$(printf 'oware-tb-%02d.otb' "$n")
        if ! cmp -s "$WORK/single/$f" "$1/$f"; then
            echo "  $f differs from the single-process build" >&2
            ok=0
        fi
    done
    if ls "$1"/*.tmp >/dev/null 2>&1; then
        echo "  temporary files left in $1" >&2
        ok=0
    fi
    [ $ok = 1 ]
}
check() { # NAME DIR
    if same_files "$2"; then
        echo "ok: $1"
    else
        echo "FAILED: $1"
        FAILED=$((FAILED + 1))
    fi
}

echo "== single process, 0..=$N seeds"
"$BIN" tablebase build --max-seeds "$N" --dir "$WORK/single" 2>/dev/null
for k in 1 2 3; do
    echo "== mpirun -np $k, 0..=$N seeds"
    "${MPIRUN[@]}" -np "$k" "$BIN" tablebase build --max-seeds "$N" --dir "$WORK/k$k" \
        2>"$WORK/k$k.log" || { cat "$WORK/k$k.log"; false; }
    cat "$WORK/k$k.log"
    check "$k ranks: files byte-identical to the single-process build" "$WORK/k$k"
done
# From 13 seeds captures reach split counts: exits are asked of their owner.
if [ "$N" -ge 13 ]; then
    if grep -E "^13 seeds: .* [1-9][0-9]* exit look-ups between ranks" "$WORK/k2.log" >/dev/null; then
        echo "ok: exit look-ups crossed ranks"
    else
        echo "FAILED: no exit look-up crossed ranks at 13 seeds"
        FAILED=$((FAILED + 1))
    fi
fi

echo "== the last two counts again on 3 ranks, memory budget 0 MB (spilled)"
mkdir -p "$WORK/budget"
cp "$WORK/k2"/*.otb "$WORK/budget/"
rm "$WORK/budget/$(printf 'oware-tb-%02d.otb' "$N")" "$WORK/budget/$(printf 'oware-tb-%02d.otb' $((N - 1)))"
"${MPIRUN[@]}" -np 3 "$BIN" tablebase build --max-seeds "$N" --dir "$WORK/budget" \
    --memory-budget-mb 0 2>"$WORK/budget.log" || { cat "$WORK/budget.log"; false; }
cat "$WORK/budget.log"
if [ "$(grep -c 'spilled its working arrays' "$WORK/budget.log" || true)" = 2 ]; then
    echo "ok: both counts spilled"
else
    echo "FAILED: expected both counts to spill"
    FAILED=$((FAILED + 1))
fi
check "spilled build byte-identical" "$WORK/budget"
if ls -A "$WORK/budget" | grep -v '\.otb$' >/dev/null; then
    echo "FAILED: files other than tables left: $(ls -A "$WORK/budget" | grep -v '\.otb$')"
    FAILED=$((FAILED + 1))
fi

echo "== a rank killed while building $N seeds, then resumed with 3 ranks"
"${MPIRUN[@]}" -np 2 "$BIN" tablebase build --max-seeds "$N" --dir "$WORK/killed" \
    >"$WORK/killed.log" 2>&1 &
launcher=$!
last=$(printf 'oware-tb-%02d.otb' $((N - 1)))
for _ in $(seq 1 1200); do
    [ -e "$WORK/killed/$last" ] && break
    sleep 0.1
done
# A rank: a process of the binary itself (not the launcher, whose command
# line also names it).
victim=$(pgrep -f "^$BIN tablebase build --max-seeds $N --dir $WORK/killed" | head -n 1 || true)
if [ -n "$victim" ] && [ ! -e "$WORK/killed/$(printf 'oware-tb-%02d.otb' "$N")" ]; then
    echo "killing rank process $victim"
    kill -KILL "$victim"
    if wait "$launcher"; then
        echo "FAILED: the build survived the loss of a rank"
        FAILED=$((FAILED + 1))
    fi
    "${MPIRUN[@]}" -np 3 "$BIN" tablebase build --max-seeds "$N" --dir "$WORK/killed" \
        2>"$WORK/resume.log"
    cat "$WORK/resume.log"
    kept=$(grep -c 'valid file kept' "$WORK/resume.log" || true)
    if [ "$kept" -ge "$N" ]; then
        echo "ok: resumed after $kept counts kept"
    else
        echo "FAILED: expected the counts below $N to be kept, $kept were"
        FAILED=$((FAILED + 1))
    fi
    check "resumed build byte-identical" "$WORK/killed"
else
    wait "$launcher" || true
    echo "FAILED: could not catch a rank while it built $N seeds"
    FAILED=$((FAILED + 1))
fi

if [ "$FAILED" -gt 0 ]; then
    echo "$FAILED MPI check(s) failed"
    exit 1
fi
echo "all MPI checks passed"
