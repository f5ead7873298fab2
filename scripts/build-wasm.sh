#!/usr/bin/env bash
# Builds the WebAssembly module of crates/oware-wasm into
# crates/oware-server/web/wasm/oware.wasm, reproducibly: the same sources
# give the same bytes, on any machine with the toolchain below.
#
#   scripts/build-wasm.sh            build and copy it into web/wasm/
#   scripts/build-wasm.sh --check    build and fail unless it equals the
#                                    checked-in module, byte for byte
#
# The toolchain comes from Debian (scripts/install-test-deps installs it):
# rustc-web and cargo-web (Rust 1.96 in /usr/bin), rust-web-src (the
# standard library's source, rebuilt for wasm32 with -Zbuild-std, since
# Debian ships no wasm32 standard library of that version and rustup's
# toolchain here cannot download one) and lld (wasm-ld, the linker).
# -Zbuild-std is a nightly option; RUSTC_BOOTSTRAP=1 lets this stable
# compiler accept it. The paths of this checkout, of the registry and of
# the standard library's source are remapped so they do not end up in the
# module. docs/WEB.md, "The engine in the browser", says more.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

check=0
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: scripts/build-wasm.sh [--check]" >&2; exit 2 ;;
esac

CARGO=/usr/bin/cargo
RUSTC=/usr/bin/rustc
for tool in "$CARGO" "$RUSTC" /usr/bin/wasm-ld; do
    if [ ! -x "$tool" ]; then
        echo "build-wasm: $tool is missing; run scripts/install-test-deps (Debian's cargo-web, rustc-web, rust-web-src, lld)" >&2
        exit 1
    fi
done
sysroot=$("$RUSTC" --print sysroot)
if [ ! -d "$sysroot/lib/rustlib/src/rust/library" ]; then
    echo "build-wasm: the standard library's source is missing ($sysroot/lib/rustlib/src/rust); install rust-web-src" >&2
    exit 1
fi

target_dir=$root/target/wasm
cargo_home=${CARGO_HOME:-$HOME/.cargo}
export RUSTC
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/bin/wasm-ld
export CARGO_TARGET_DIR=$target_dir
export CARGO_INCREMENTAL=0
export SOURCE_DATE_EPOCH=0
export RUSTFLAGS="--remap-path-prefix=$root=/oware --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$sysroot/lib/rustlib/src/rust=/rust -C target-feature=+bulk-memory,+mutable-globals,+sign-ext,+nontrapping-fptoint"
unset RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER CARGO_BUILD_RUSTFLAGS

"$CARGO" build --locked --quiet -p oware-wasm --profile wasm \
    --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort

built=$target_dir/wasm32-unknown-unknown/wasm/oware_wasm.wasm
dest=crates/oware-server/web/wasm/oware.wasm
size=$(stat -c %s "$built")
if [ $check -eq 1 ]; then
    if cmp -s "$built" "$dest"; then
        echo "build-wasm: $dest is the fresh build, byte for byte ($size bytes, sha256 $(sha256sum "$built" | cut -c1-16))"
    else
        echo "build-wasm: $dest differs from a fresh build ($size bytes, was $(stat -c %s "$dest" 2>/dev/null || echo missing)); run scripts/build-wasm.sh and commit it" >&2
        exit 1
    fi
else
    cp "$built" "$dest"
    echo "build-wasm: $dest, $size bytes, sha256 $(sha256sum "$dest" | cut -c1-16)"
fi
