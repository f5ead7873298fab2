#!/usr/bin/env bash
# Browser end-to-end tests: builds `oware`, starts `oware serve` on a free
# loopback port with a temporary database, runs e2e/tests/*.test.mjs with
# node's test runner (playwright-core driving /usr/bin/chromium), two files
# at a time (E2E_CONCURRENCY; each test file its own browser, its own
# accounts and games), then stops the server. Exits non-zero when a test
# fails. Screenshots land in
# e2e/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "test-web: no Chromium at ${CHROMIUM:-/usr/bin/chromium}; run scripts/install-test-deps" >&2
    exit 1
fi
[ -d e2e/node_modules/playwright-core ] || (cd e2e && npm ci --no-audit --no-fund)

# The binary of the workspace's tests (scripts/oware-bin.sh).
. scripts/oware-bin.sh
oware_bin

tmp=$(mktemp -d)
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
url="http://127.0.0.1:$port"
"$oware" serve --addr "127.0.0.1:$port" --db "$tmp/games.sqlite3" --tablebase-seeds 12 --seek-grace 4 >"$tmp/server.log" 2>&1 &
server=$!
cleanup() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# Wait (at most 20 s) for the server to answer.
node -e '
const url = process.argv[1] + "/api/v1/lobby";
const end = Date.now() + 20000;
(async function poll() {
  try { const r = await fetch(url); if (r.ok) process.exit(0); } catch (_) {}
  if (Date.now() > end) { console.error("test-web: the server did not start"); process.exit(1); }
  setTimeout(poll, 100);
})();' "$url" || { cat "$tmp/server.log" >&2; exit 1; }

status=0
# OWARE_BIN lets a test start servers of its own (one it restarts).
# E2E_TESTS picks some of the tests (e.g. "tests/lobby.test.mjs"); all by default.
(cd e2e && OWARE_URL="$url" OWARE_BIN="$oware" node --test --test-concurrency=${E2E_CONCURRENCY:-2} --test-timeout=180000 ${E2E_TESTS:-tests/*.test.mjs}) || status=$?
if [ "$status" -ne 0 ]; then
    echo "== server log (last 40 lines)" >&2
    tail -n 40 "$tmp/server.log" >&2
fi
exit "$status"
