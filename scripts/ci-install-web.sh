#!/usr/bin/env bash
# Installs what the browser end-to-end tests need: Debian's Chromium (test
# tools cannot download a browser here) and the npm test packages of e2e/.
# Idempotent: does nothing that is already done.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y chromium fonts-dejavu-core
fi
if [ ! -d e2e/node_modules/playwright-core ]; then
    (cd e2e && npm ci --no-audit --no-fund)
fi
