#!/usr/bin/env bash
# The WebAssembly module's tests: rebuilds it and checks that the
# checked-in crates/oware-server/web/wasm/oware.wasm is that build byte for
# byte (scripts/build-wasm.sh --check), then runs the Node tests of its API
# (e2e/wasm/*.test.mjs): the rules data files, the perft vectors, the bench
# signature against the native `oware bench`, tables read from bytes and a
# damaged one refused, and a stop during a search.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build-wasm.sh --check

# The binary of the workspace's tests (scripts/oware-bin.sh).
. scripts/oware-bin.sh
oware_bin

cd e2e
OWARE_BIN="$oware" node --test --test-concurrency=1 --test-timeout=120000 wasm/*.test.mjs
