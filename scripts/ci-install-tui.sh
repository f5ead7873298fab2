#!/usr/bin/env bash
# The terminal game's end-to-end test drives the real binary inside tmux.
set -euo pipefail
if ! command -v tmux >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq tmux >/dev/null
fi
tmux -V
