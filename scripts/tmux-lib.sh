# Shared by the terminal end-to-end tests (scripts/test-tui.sh,
# scripts/test-puzzle-tui.sh): the real binary in a pseudo-terminal (a tmux
# pane), driven with keys, its screen read back. Source it after setting
# SESSION (the pane's session name); it sets the binary ($BIN, scripts/oware-bin.sh), starts a private tmux server (kept alive by an idle
# session, so killing one test session never races with the server
# shutting down) and removes it on exit, with $WORK.
#
# Not a test itself (scripts/test-all runs scripts/test-*.sh).

# The binary of the workspace's tests (scripts/oware-bin.sh).
. scripts/oware-bin.sh
oware_bin
BIN=$oware
WORK="$(mktemp -d)"
SOCKET="$SESSION-$$"
tm() { tmux -u -L "$SOCKET" "$@"; }
PASSED=0
FAILED=0
cleanup() {
    tm kill-server 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tm capture-pane -p -t "$SESSION"; }

# wait_for TEXT [SECONDS]: until TEXT (fixed string) is on screen.
wait_for() { wait_screen -F "$@"; }
# wait_words TEXT [SECONDS]: until TEXT is on the screen, even wrapped over
# lines (frames and runs of spaces are read as one space): for sentences
# whose wrap point depends on what is shown before them.
wait_words() {
    local text="$1" limit="${2:-15}" i
    for ((i = 0; i < limit * 10; i++)); do
        if screen | sed 's/[│║╭╮╰╯─═╔╗╚╝]/ /g' | tr '\n' ' ' | tr -s ' ' | grep -qF -- "$text"; then
            return 0
        fi
        sleep 0.1
    done
    echo "--- timed out waiting for: $text"
    screen
    return 1
}
# wait_re REGEX [SECONDS]: until an extended regex matches the screen.
wait_re() { wait_screen -E "$@"; }
wait_screen() {
    local mode="$1" text="$2" limit="${3:-15}" i
    for ((i = 0; i < limit * 10; i++)); do
        if screen | grep -q "$mode" -- "$text"; then
            return 0
        fi
        sleep 0.1
    done
    echo "--- timed out waiting for: $text"
    screen
    return 1
}

# check NAME COMMAND...: runs the command, counts and prints the outcome.
check() {
    local name="$1"
    shift
    if "$@"; then
        echo "ok   $name"
        PASSED=$((PASSED + 1))
    else
        echo "FAIL $name"
        FAILED=$((FAILED + 1))
    fi
}

# start_pane COMMAND: a fresh pane (COLS x ROWS, 80x24 unless set) running
# COMMAND (a shell command line); after it exits the shell prints its exit
# status and whether the tty is back in canonical mode.
start_pane() {
    tm kill-session -t "$SESSION" 2>/dev/null || true
    tm new-session -d -s "$SESSION" -x "${COLS:-80}" -y "${ROWS:-24}" \
        "$1; echo EXITED:\$?; stty -a | grep -qw -- -icanon && echo TTY:RAW || echo TTY:COOKED; sleep 60"
}

keys() { tm send-keys -t "$SESSION" "$@"; }

# snap NAME: keeps the screen in $SCREENS (a capture to read afterwards).
SCREENS="${OWARE_SCREENS_DIR:-$WORK/screens}"
mkdir -p "$SCREENS"
snap() { screen > "$SCREENS/$1.txt"; }

# finish NAME: the tally; fails when a check failed.
finish() {
    echo "$1: $PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}

tm new-session -d -s keeper -x 80 -y 24 "sleep 3600"
