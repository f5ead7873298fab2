#!/usr/bin/env bash
# Builds the WebAssembly modules of crates/oware-wasm into
# crates/oware-server/web/wasm/, reproducibly: the same sources give the
# same bytes, on any machine with the toolchain below. Two builds of the
# same code:
#
#   oware.wasm         with WebAssembly SIMD (simd128): the network's
#                      inference in 128-bit vectors (oware-engine's nn.rs),
#                      for every browser that validates SIMD (Chrome 91,
#                      Firefox 89, Safari 16.4 and later; Node 16.4+)
#   oware-plain.wasm   without it, for the others
#   oware-threads.wasm SIMD with atomics and a shared memory it imports
#                      (THREADS_LINK below), whose searches run on several
#                      threads, one Web Worker each, where the page is
#                      cross-origin isolated
#
# The worker loads only the one the browser can run (js/engine/wasm.js,
# `moduleUrl`).
#
#   scripts/build-wasm.sh            build all three, copy them into web/wasm/
#                                    and write the list of what they were
#                                    built from (below)
#   scripts/build-wasm.sh --check    build them and fail unless each equals
#                                    the checked-in one, byte for byte, and
#                                    the list is current
#   scripts/build-wasm.sh --sources  fail unless the list is current: a
#                                    quick check, without building (what
#                                    scripts/test-wasm.sh runs by default)
#
# The list, crates/oware-wasm/module-sources.sha256, holds the compiler's
# version and the SHA-256 of everything the modules are built from: the
# workspace's Cargo.toml (but its profiles other than release and wasm),
# the registry crates they use (`cargo tree`), this script, and every file
# of oware-wasm and of the workspace crates it depends on (found with
# `cargo metadata`), but their tests, benchmarks and examples. A change to
# any of them without a new build makes `--sources` fail and name it.
#
# The toolchain comes from Debian (scripts/install-test-deps installs it):
# rustc-web and cargo-web (Rust 1.96 in /usr/bin), rust-web-src (the
# standard library's source, rebuilt for wasm32 with -Zbuild-std, since
# Debian ships no wasm32 standard library of that version and rustup's
# toolchain here cannot download one) and lld (wasm-ld, the linker).
# -Zbuild-std is a nightly option; RUSTC_BOOTSTRAP=1 lets this stable
# compiler accept it. The paths of this checkout, of the registry and of
# the standard library's source are remapped so they do not end up in the
# module. Each build has its own target directory (target/wasm,
# target/wasm-simd, target/wasm-threads: the standard library is built with
# each one's target features), so a second run rebuilds none. docs/WEB.md, "The engine in
# the browser", says more.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

check=0
sources_only=0
case "${1:-}" in
    --check) check=1 ;;
    --sources) sources_only=1 ;;
    "") ;;
    *) echo "usage: scripts/build-wasm.sh [--check | --sources]" >&2; exit 2 ;;
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

list=crates/oware-wasm/module-sources.sha256

# The list of what the modules are built from, on standard output.
sources() {
    echo "# $("$RUSTC" --version)"
    echo "# scripts/build-wasm.sh writes this file; scripts/build-wasm.sh --sources checks it"
    local crates
    crates=$(cargo metadata --format-version 1 --locked --no-deps | python3 -c '
import json, os, sys
meta = json.load(sys.stdin)
by_name = {p["name"]: p for p in meta["packages"]}
seen, todo = set(), ["oware-wasm"]
while todo:
    name = todo.pop()
    if name in seen:
        continue
    seen.add(name)
    for dep in by_name[name]["dependencies"]:
        if dep.get("path") and dep["kind"] in (None, "build"):
            todo.append(dep["name"])
root = os.getcwd() + "/"
for name in sorted(seen):
    print(os.path.dirname(by_name[name]["manifest_path"]).removeprefix(root))')
    # The workspace's manifest without the profiles the build does not
    # use, and the versions of the registry's crates in the build (not the
    # whole lock file): a change elsewhere (the test profile, a server
    # dependency) leaves the modules as they are.
    python3 -c '
import json, sys, tomllib
with open("Cargo.toml", "rb") as f:
    manifest = tomllib.load(f)
manifest["profile"] = {k: v for k, v in manifest.get("profile", {}).items() if k in ("release", "wasm")}
sys.stdout.write(json.dumps(manifest, sort_keys=True))' | sha256sum | sed 's|-$|Cargo.toml (but the profiles other than release and wasm)|'
    cargo tree --locked -q -p oware-wasm --target wasm32-unknown-unknown -e normal,build --prefix none \
        | sed -e "s| (\*)$||" -e "s| (/[^)]*)$| (path)|" | LC_ALL=C sort -u | sha256sum | sed 's|-$|Cargo.lock (the crates of `cargo tree -p oware-wasm`)|'
    # shellcheck disable=SC2086
    find scripts/build-wasm.sh $crates -type f \
        -not -path '*/tests/*' -not -path '*/benches/*' -not -path '*/examples/*' \
        -not -path "$list" | LC_ALL=C sort | xargs sha256sum
}

if [ $sources_only -eq 1 ]; then
    if diff <(sources) "$list" >/dev/null 2>&1; then
        echo "build-wasm: web/wasm's modules are built from the current sources ($list, $(grep -vc '^#' "$list") files)"
        exit 0
    fi
    echo "build-wasm: web/wasm's modules are not built from the current sources; run scripts/build-wasm.sh and commit the modules and $list. What changed (< now, > at the last build):" >&2
    diff <(sources) "$list" >&2 || true
    exit 1
fi

cargo_home=${CARGO_HOME:-$HOME/.cargo}
export RUSTC
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/bin/wasm-ld
export CARGO_INCREMENTAL=0
export SOURCE_DATE_EPOCH=0
unset RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER CARGO_BUILD_RUSTFLAGS
remap="--remap-path-prefix=$root=/oware --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$sysroot/lib/rustlib/src/rust=/rust"
features="+bulk-memory,+mutable-globals,+sign-ext,+nontrapping-fptoint"

# The threads build's memory: imported (the page makes it, shared, and
# hands it to every worker's instance), 2 MiB at first and at most 512 MiB
# (the 16 MiB table, the analyses' own 16 MiB, the tables, up to a 256 MiB
# `hash`); js/engine/wasm.js's THREADS_MEMORY says the same in pages.
# wasm-ld sets up no thread's stack or thread-local block, so it exports
# what the page needs to: the stack pointer and the thread-local block's
# size, alignment and initialiser (lib.rs, "Threads").
threads_link="--shared-memory --import-memory --initial-memory=2097152 --max-memory=536870912"
threads_link+=" --export=__stack_pointer --export=__wasm_init_tls --export=__tls_size --export=__tls_align"
threads_flags=""
for arg in $threads_link; do threads_flags+=" -C link-arg=$arg"; done

failed=0
# build NAME TARGET_DIR EXTRA_FEATURES [EXTRA_RUSTFLAGS]
build() {
    local name=$1 target_dir=$2 extra=$3 flags=${4:-}
    CARGO_TARGET_DIR=$target_dir RUSTFLAGS="$remap -C target-feature=$features$extra$flags" \
        "$CARGO" build --locked --quiet -p oware-wasm --profile wasm \
        --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
    local built=$target_dir/wasm32-unknown-unknown/wasm/oware_wasm.wasm
    local dest=crates/oware-server/web/wasm/$name
    local size
    size=$(stat -c %s "$built")
    if [ $check -eq 1 ]; then
        if cmp -s "$built" "$dest"; then
            echo "build-wasm: $dest is the fresh build, byte for byte ($size bytes, sha256 $(sha256sum "$built" | cut -c1-16))"
        else
            echo "build-wasm: $dest differs from a fresh build ($size bytes, was $(stat -c %s "$dest" 2>/dev/null || echo missing)); run scripts/build-wasm.sh and commit it" >&2
            return 1
        fi
    else
        cp "$built" "$dest"
        echo "build-wasm: $dest, $size bytes, sha256 $(sha256sum "$dest" | cut -c1-16)"
    fi
}

# All at once: each ends in a long single-threaded link (LTO, one codegen
# unit), so together they keep both cores busy.
build oware-plain.wasm "$root/target/wasm" "" &
plain=$!
build oware.wasm "$root/target/wasm-simd" ",+simd128" &
simd=$!
build oware-threads.wasm "$root/target/wasm-threads" ",+simd128,+atomics" "$threads_flags" &
threads=$!
wait "$plain" || failed=1
wait "$simd" || failed=1
wait "$threads" || failed=1
if [ $check -eq 1 ]; then
    if ! diff <(sources) "$list" >&2; then
        echo "build-wasm: $list is out of date (< now, > in the file); run scripts/build-wasm.sh and commit it" >&2
        failed=1
    fi
elif [ $failed -eq 0 ]; then
    sources >"$list"
    echo "build-wasm: $list, $(grep -vc '^#' "$list") files"
fi
exit $failed
