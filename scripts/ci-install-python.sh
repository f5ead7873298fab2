#!/usr/bin/env bash
# The Python package's tests (scripts/test-python.sh) need python3 (3.9 or
# later) with venv and pip; everything else comes from PyPI into a virtual
# environment. Installs from Debian only what is missing (run as root).
set -euo pipefail
missing=()
if ! command -v python3 >/dev/null 2>&1; then
    missing+=(python3)
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    missing+=(python3-venv)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    echo "ci-install-python: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -c 'import sys; assert sys.version_info >= (3, 9), sys.version; print("python", sys.version.split()[0])'
