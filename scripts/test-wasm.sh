#!/usr/bin/env bash
# The WebAssembly module's tests: checks that the checked-in modules
# (crates/oware-server/web/wasm/) are built from the current sources
# (scripts/build-wasm.sh --sources: the SHA-256 of every file they are built
# from, against the list written by their build; with OWARE_WASM_REBUILD=1,
# rebuilds all three and compares them byte for byte, --check, several
# minutes of both cores), then runs the Node tests of its API
# (e2e/wasm/*.test.mjs): the rules data files, the perft vectors, the bench
# signature against the native `oware bench`, tables read from bytes and a
# damaged one refused, a stop during a search, and the threads build on two
# threads.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${OWARE_WASM_REBUILD:-0}" = 1 ]; then
    scripts/build-wasm.sh --check
else
    scripts/build-wasm.sh --sources
fi

# The binary of the workspace's tests (scripts/oware-bin.sh).
. scripts/oware-bin.sh
oware_bin

cd e2e
OWARE_BIN="$oware" node --test --test-concurrency=1 --test-timeout=120000 wasm/*.test.mjs
