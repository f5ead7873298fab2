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

# The same build profile as the workspace tests in scripts/test-all, so the
# binary is already built there.
profile="${OWARE_TEST_PROFILE:-ci}"
cargo build --profile "$profile" --locked -p oware
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')

cd e2e
OWARE_BIN="$target_dir/$profile/oware" node --test --test-concurrency=1 --test-timeout=120000 wasm/*.test.mjs
