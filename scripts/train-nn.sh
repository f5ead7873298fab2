#!/usr/bin/env bash
# Trains the evaluation network from scratch, reproducibly (docs/ENGINE.md,
# "The network"): self-play data labelled by search and the endgame tables
# (`oware tune nn-gen`, seeded), then scripts/train-nn.py (numpy, seeded) in
# a virtual environment under target/. Writes
# crates/oware-engine/nn/oware.nn and nn/reference.txt (the float model's
# values that the Rust tests compare with the integer inference).
#
#   scripts/train-nn.sh            # the data and training of the network of issue 13
#   GAMES=200 scripts/train-nn.sh  # a quicker, smaller run
#   # issue 25: tables to 22 seeds from files, three files of round 1, then
#   # a second round played by round 1's network (the command of docs/ENGINE.md):
#   TB_DIR=/work/tb24 GAMES=500 SEEDS="31 32 33" ROUND2_SEEDS="41 42" ROUND2_GAMES=150 \
#     EPOCHS=20 PARALLEL=1 NICE=0 OUT=target/nn-data/new.nn \
#     REFERENCE=target/nn-data/new-reference.txt nice -n 5 scripts/train-nn.sh
#   # issue 37, E (shipped on 5 December 2026, night): tables to 24
#   # seeds, two files of the linear evaluation and two played by the
#   # network of issue 25 (`git show 1f42202:crates/oware-engine/nn/oware.nn`),
#   # 8 output buckets, margin labels at weight 1:
#   TB_DIR=/work/tb24 GAMES=500 SEEDS="31 32" ROUND2_SEEDS="51 52" ROUND2_GAMES=2500 \
#     ROUND2_NETWORK=issue25.nn BUCKETS=8 MARGIN=1.0 PARALLEL=1 scripts/train-nn.sh
#   # issue 37, H (the shipped network since 5 December 2026, morning): E's
#   # four files (above, in $DATA) and two of 3,000 games played by E
#   # (`git show 2664b3f:crates/oware-engine/nn/oware.nn`), 60 epochs:
#   for s in 61 62; do oware tune nn-gen --games 3000 --seed $s --depth 9 \
#     --tablebase-dir /work/tb24 --network E.nn --out target/nn-data/e-s$s.txt; done
#   target/nn-venv/bin/python scripts/train-nn.py E_FILES... \
#     target/nn-data/e-s61.txt target/nn-data/e-s62.txt --epochs 60 --seed 1 \
#     --buckets 8 --margin 1.0 --out H.nn --reference H-ref.txt
#   # (E_FILES: the four data files the E run wrote in target/nn-data, the
#   # two of seeds 31/32 first, then 51/52, in that order)
#
# Environment:
#   GAMES         games per data file (default 1000)
#   DEPTH         search depth of every move (default 9)
#   TB_SEEDS      tables built in memory up to this many seeds (default 16)
#   TB_DIR        a directory of table files to open instead (e.g. up to 22
#                 seeds); they serve the search and the exact labels
#   SEEDS         seeds of the round-1 files, played with the linear
#                 evaluation (default "31 32")
#   ROUND2_SEEDS  seeds of second-round files (default none): played with
#                 the network trained on round 1 (written to
#                 $DATA/round1.nn), then the final network is trained on
#                 every file of both rounds
#   ROUND2_GAMES  games per second-round file (default GAMES)
#   ROUND2_NETWORK  play the second round with this network file (e.g. the
#                 shipped crates/oware-engine/nn/oware.nn: the engine's own
#                 games) instead of one trained on round 1
#   EPOCHS        training epochs (default 30)
#   BUCKETS       output buckets by the seeds on the board (default 1)
#   MARGIN        weight of the tables' exact final margin against their
#                 result in the target (default 0: the result alone)
#   DATA          directory of the data files (default target/nn-data)
#   OUT, REFERENCE  the network and reference files written (default the
#                 shipped crates/oware-engine/nn/oware.nn and reference.txt)
#   PARALLEL      1: generate the files of a round at the same time (one
#                 process each; the files are the same as one after the other)
#   NICE          niceness added to the generation and training (default 10)
#   OWARE         an oware binary to use instead of building one
# Data files already present are reused (a run can be resumed).
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-1000}
DEPTH=${DEPTH:-9}
TB_SEEDS=${TB_SEEDS:-16}
TB_DIR=${TB_DIR:-}
SEEDS=${SEEDS:-31 32}
ROUND2_SEEDS=${ROUND2_SEEDS:-}
ROUND2_GAMES=${ROUND2_GAMES:-$GAMES}
ROUND2_NETWORK=${ROUND2_NETWORK:-}
EPOCHS=${EPOCHS:-30}
BUCKETS=${BUCKETS:-1}
MARGIN=${MARGIN:-0}
PARALLEL=${PARALLEL:-0}
NICE=${NICE:-10}
DATA=${DATA:-target/nn-data}
OUT=${OUT:-crates/oware-engine/nn/oware.nn}
REFERENCE=${REFERENCE:-crates/oware-engine/nn/reference.txt}
VENV=target/nn-venv

if [ -z "${OWARE:-}" ]; then
  cargo build --release -p oware
  OWARE=target/release/oware
fi
mkdir -p "$DATA"

if [ -n "$TB_DIR" ]; then
  tables=(--tablebase-dir "$TB_DIR")
  tag="tbdir"
else
  tables=(--tablebase-seeds "$TB_SEEDS")
  tag=""
fi

# gen FILE GAMES SEED [nn-gen options...]: one data file, unless present.
gen() {
  local file=$1 games=$2 seed=$3
  shift 3
  if [ ! -s "$file" ]; then
    local started=$SECONDS
    nice -n "$NICE" "$OWARE" tune nn-gen --games "$games" --depth "$DEPTH" --seed "$seed" \
      "${tables[@]}" "$@" --out "$file.part"
    mv "$file.part" "$file"
    echo "$file: $((SECONDS - started)) s, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  fi
}

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -c 'import numpy' 2>/dev/null || "$VENV/bin/pip" install --quiet 'numpy>=1.26'

train() {
  local out=$1 reference=$2
  shift 2
  local started=$SECONDS
  nice -n "$NICE" "$VENV/bin/python" scripts/train-nn.py "$@" \
    --epochs "$EPOCHS" --buckets "$BUCKETS" --margin "$MARGIN" --seed 1 \
    --out "$out" --reference "$reference"
  echo "trained $out: $((SECONDS - started)) s, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
}

# run COMMAND...: at once, or in the background with PARALLEL=1 (then
# `wait` collects it; a failed file stops the script there).
run() {
  if [ "$PARALLEL" = 1 ]; then
    "$@" &
  else
    "$@"
  fi
}

files=()
for seed in $SEEDS; do
  if [ -z "$tag" ]; then
    file="$DATA/nn-d$DEPTH-g$GAMES-s$seed.txt"
  else
    file="$DATA/nn-d$DEPTH-g$GAMES-$tag-s$seed.txt"
  fi
  run gen "$file" "$GAMES" "$seed"
  files+=("$file")
done
for job in $(jobs -p); do wait "$job"; done

if [ -n "$ROUND2_SEEDS" ]; then
  if [ -n "$ROUND2_NETWORK" ]; then
    round1=$ROUND2_NETWORK
    # Files of different players must not be mixed up on a resumed run.
    r2tag="-r2net$(sha256sum "$round1" | cut -c1-8)"
  else
    round1="$DATA/round1-d$DEPTH-g$GAMES${tag:+-$tag}-s${SEEDS// /_}.nn"
    r2tag="-r2"
    if [ ! -s "$round1" ]; then
      train "$round1" "$round1.reference.txt" "${files[@]}"
    fi
  fi
  for seed in $ROUND2_SEEDS; do
    file="$DATA/nn-d$DEPTH-g$ROUND2_GAMES${tag:+-$tag}$r2tag-s$seed.txt"
    run gen "$file" "$ROUND2_GAMES" "$seed" --network "$round1"
    files+=("$file")
  done
  for job in $(jobs -p); do wait "$job"; done
fi

train "$OUT" "$REFERENCE" "${files[@]}"
