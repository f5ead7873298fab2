#!/usr/bin/env bash
# The distributed tablebase build (feature `mpi` of the oware binary) needs
# Open MPI (mpirun and the headers) and libclang (bindgen, at build time).
# Run as root; installs only what is missing.
set -euo pipefail
missing=()
command -v mpirun >/dev/null 2>&1 || missing+=(openmpi-bin)
dpkg -s libopenmpi-dev >/dev/null 2>&1 || missing+=(libopenmpi-dev)
dpkg -s libclang-dev >/dev/null 2>&1 || missing+=(libclang-dev)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
mpirun --version | head -n 1
