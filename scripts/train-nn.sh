#!/usr/bin/env bash
# Trains the evaluation network from scratch, reproducibly (docs/ENGINE.md,
# "The network"): self-play data labelled by search and the endgame tables
# (`oware tune nn-gen`, seeded), then scripts/train-nn.py (numpy, seeded) in
# a virtual environment under target/. Writes
# crates/oware-engine/nn/oware.nn and nn/reference.txt (the float model's
# values that the Rust tests compare with the integer inference).
#
#   scripts/train-nn.sh            # the shipped network's data and training
#   GAMES=200 scripts/train-nn.sh  # a quicker, smaller run
#
# Environment: GAMES (per data file, 2 files), DEPTH, TB_SEEDS, EPOCHS,
# DATA (directory for the data files, default target/nn-data).
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-1000}
DEPTH=${DEPTH:-9}
TB_SEEDS=${TB_SEEDS:-16}
EPOCHS=${EPOCHS:-30}
DATA=${DATA:-target/nn-data}
VENV=target/nn-venv

cargo build --release -p oware
OWARE=target/release/oware
mkdir -p "$DATA"
for seed in 31 32; do
  file="$DATA/nn-d$DEPTH-g$GAMES-s$seed.txt"
  if [ ! -s "$file" ]; then
    nice -n 10 "$OWARE" tune nn-gen --games "$GAMES" --depth "$DEPTH" --seed "$seed" \
      --tablebase-seeds "$TB_SEEDS" --out "$file.part"
    mv "$file.part" "$file"
  fi
done

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -c 'import numpy' 2>/dev/null || "$VENV/bin/pip" install --quiet 'numpy>=1.26'

nice -n 10 "$VENV/bin/python" scripts/train-nn.py \
  "$DATA/nn-d$DEPTH-g$GAMES-s31.txt" "$DATA/nn-d$DEPTH-g$GAMES-s32.txt" \
  --epochs "$EPOCHS" --seed 1 \
  --out crates/oware-engine/nn/oware.nn --reference crates/oware-engine/nn/reference.txt
