# Sourced by the test scripts: sets $oware to the `oware` binary they test.
#
# Under scripts/test-all it is the binary the workspace's tests were built
# with ($OWARE_TEST_BIN, which has the `mpi` feature), so nothing is
# compiled again. (A `cargo build -p oware` after `cargo test --workspace`
# resolves the dependencies' features differently and rebuilt most of
# them: 160 s of the suite.) A script run on its own builds the binary in
# the test profile, with the cargo options it passes (`oware_bin
# --features mpi`).
#
# Not a test itself (scripts/test-all runs scripts/test-*.sh).
oware_bin() {
    if [ -n "${OWARE_TEST_BIN:-}" ]; then
        oware=$OWARE_TEST_BIN
        return
    fi
    local profile="${OWARE_TEST_PROFILE:-ci}" dir
    cargo build --profile "$profile" --locked -q -p oware "$@"
    dir=$(cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    oware="$dir/$profile/oware"
}
