#!/usr/bin/env bash
# Builds the Python package (python/, maturin + PyO3, release profile but no
# LTO) into a virtual environment with the packages its tests use (pytest, numpy,
# open-spiel, pettingzoo, gymnasium, mypy), checks the type stubs against
# the compiled module, and runs pytest. The environment is kept under
# target/python-venv and reused; only the package is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${OWARE_PYTHON_VENV:-$PWD/target/python-venv}"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
# The extension crate is outside the Cargo workspace, so the workspace-wide
# fmt and clippy checks of scripts/test-all do not see it: check it here.
cargo fmt --check --manifest-path python/Cargo.toml
cargo clippy --manifest-path python/Cargo.toml --locked --all-targets -q -- -D warnings
PY="$VENV/bin/python"
export PATH="$VENV/bin:$PATH"
"$PY" -m pip install -q --disable-pip-version-check --upgrade pip uv
# The test packages through uv (Astral's installer, from PyPI): on a machine
# without a cache it fetches and installs them in parallel, about 20 s
# where pip took about 95 s (measured 4 December 2026, load 6).
"$VENV/bin/uv" pip install -q --python "$PY" \
    'maturin>=1.9,<2' 'pytest>=7' 'numpy>=1.21' 'open-spiel>=1.5' \
    'pettingzoo>=1.24' 'gymnasium>=0.29' 'mypy>=1.10'
# The README's install command, with the environment's maturin (no
# isolated build environment to download each time).
# Without link-time optimisation here: the same code, built in half the time
# (the release profile's fat LTO is one long single-threaded link).
CARGO_PROFILE_RELEASE_LTO=false "$PY" -m pip install -q --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps ./python
# The stubs agree with the compiled module, and the pure-Python parts type-check.
(cd /tmp && "$PY" -m mypy.stubtest oware._oware \
    --allowlist "$OLDPWD/python/stubtest-allowlist.txt")
"$PY" -m mypy --ignore-missing-imports --no-error-summary -p oware
# The command line that Python's Engine.analyze is compared with
# (python/tests/test_one_answer.py: one answer everywhere, issue 36).
. scripts/oware-bin.sh
oware_bin
export OWARE_BIN=$oware
# From the repository root, so `import oware` is the installed package;
# docs/PYTHON.md's examples run as doctests.
"$VENV/bin/pytest" -q -p no:cacheprovider python/tests docs/PYTHON.md \
    --doctest-glob=PYTHON.md
