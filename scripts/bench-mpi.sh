#!/usr/bin/env bash
# Benchmark (not a test) of the distributed tablebase build: the
# single-process build, then mpirun with K = 1, 2 and 3 ranks (one thread
# each), every count up to N seeds from an empty directory; wall time, each
# rank's peak memory and the bytes exchanged, and a byte-for-byte check of
# the files against the single-process build. Figures: docs/SOLVING.md.
#   scripts/bench-mpi.sh [N] [WORKDIR]      (N defaults to 20)
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-20}"
WORK="${2:-$(mktemp -d)}"
mkdir -p "$WORK"
cargo build --release --locked -q -p oware --features mpi
BIN="$PWD/target/release/oware"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "machine: $(nproc) cores, $(uptime)"
echo "== single process (all cores), 0..=$N"
if [ -e "$WORK/single/$(printf 'oware-tb-%02d.otb' "$N")" ]; then
    echo "(files of an earlier run kept)"
else
    /usr/bin/time -f "wall %e s, peak RSS %M kB" "$BIN" tablebase build --max-seeds "$N" \
        --dir "$WORK/single" 2>&1 | grep -v 'seeds: ' || true
fi
for k in 1 2 3; do
    echo "== mpirun -np $k (one thread a rank), 0..=$N; $(uptime)"
    rm -rf "$WORK/k$k"
    start=$(date +%s.%N)
    RAYON_NUM_THREADS=1 mpirun --oversubscribe --bind-to none -np "$k" \
        "$BIN" tablebase build --max-seeds "$N" --dir "$WORK/k$k" 2>&1 | grep --line-buffered -v 'built by rank 0'
    echo "wall $(echo "$(date +%s.%N) - $start" | bc) s"
    for n in $(seq 0 "$N"); do
        f=$(printf 'oware-tb-%02d.otb' "$n")
        cmp -s "$WORK/single/$f" "$WORK/k$k/$f" || echo "DIFFERS: $f"
    done
    echo "files compared with the single-process build"
    rm -rf "$WORK/k$k"
done
echo "done; $(uptime)"
