#!/usr/bin/env bash
# End-to-end test of `oware play`: the real binary in a pseudo-terminal
# (a tmux pane of 80x24), driven with keys, its screen read back.
set -euo pipefail
cd "$(dirname "$0")/.."
# The same build profile as the workspace tests in scripts/test-all.
profile="${OWARE_TEST_PROFILE:-ci}"
cargo build --profile "$profile" --locked -q -p oware
BIN="$PWD/target/$profile/oware"
WORK="$(mktemp -d)"
SESSION="oware-e2e"
# A private tmux server, kept alive by an idle session, so killing one test
# session never races with the server shutting down.
SOCKET="oware-e2e-$$"
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

# start ARGS...: a fresh pane running the game; after it exits the shell
# prints its exit status and whether the tty is back in canonical mode.
start() {
    tm kill-session -t "$SESSION" 2>/dev/null || true
    tm new-session -d -s "$SESSION" -x 80 -y 24 \
        "env OWARE_DATA_DIR='$WORK/data' OWARE_TEST_PANIC_KEY=1 LANG=en_US.UTF-8 '$BIN' play $*; \
         echo EXITED:\$?; stty -a | grep -qw -- -icanon && echo TTY:RAW || echo TTY:COOKED; sleep 60"
}

keys() { tm send-keys -t "$SESSION" "$@"; }

tm new-session -d -s keeper -x 80 -y 24 "sleep 3600"

# 1. A game against the computer: setup, a move, its reply, the move list.
start --level 1 --no-animation
check "new-game screen" wait_for "New game"
keys Enter
check "board and whose turn" wait_for "You (South) · captured 0  ◀ to move"
check "house letters" wait_for "A     B     C     D     E     F"
keys f
check "landing mark for F" wait_for "◆ F: last seed in d (opponent's row), no capture."
keys Enter
check "computer replied, OGN move list" wait_re '1\. F [a-f]' 
check "last move highlighted" wait_re '\[[a-f]\]' 
keys e
keys Enter
check "second move played or refused with its reason" wait_re 'cannot be played|2\. E' 
keys '?'
check "rules screen (English)" wait_for "How to play Oware Abapa"
keys g
check "rules screen (French)" wait_for "Comment jouer à l'awalé"
keys Escape
# The language chosen on the rules screen holds for every screen.
check "board in French" wait_for "À vous (Sud)"
check "key line in French" wait_for "⏎ jouer · h indice"
keys '?' g Escape
check "board in English again" wait_for "Your turn (South)"
keys h
check "hint" wait_for "Hint: play"
keys u
check "undo" wait_for "Took back"
keys c Enter
check "a move after undo" wait_re '1\. [A-F] [a-f]' 
keys q
check "quit exits 0" wait_for "EXITED:0"
check "terminal restored after quit" wait_for "TTY:COOKED"
check "unfinished game autosaved" test -s "$WORK/data/autosave.ogn"

# 2. The next start offers the saved game; Ctrl-C quits and restores.
start --no-animation
check "resume offered" wait_for "Resume it? y / n"
keys y
check "resumed game" wait_for "You (South) · captured"
keys C-c
check "Ctrl-C exits 0" wait_for "EXITED:0"
check "terminal restored after Ctrl-C" wait_for "TTY:COOKED"

# 3. Two players with animation: sowing is shown seed by seed, a key skips.
# A 39-seed house sows for about 3 s, long enough to be seen on a busy machine.
rm -f "$WORK/data/autosave.ogn"
printf '[Variant "Abapa"]\n[FEN "39-1-1-1-1-0-1-1-1-1-1-0-0-0-S"]\n\n*\n' > "$WORK/laps.ogn"
start --two-players --load "$WORK/laps.ogn"
check "loaded two-player board" wait_for "South · captured 0  ◀ to move"
keys a Enter
check "sowing animation" wait_for "Sowing… (any key skips)" 5
keys x
check "animation skipped, North to move" wait_for "North · captured 0  ◀ to move" 5
keys p
check "agreement proposed" wait_for "do you accept? y / n"
keys y
check "game over by agreement" wait_for "(R12)"
keys q
check "quit after game over" wait_for "EXITED:0"

# 4. A panic restores the terminal too. The panic key is a test hook that
# only builds with debug assertions have (the `ci` profile; not `release`).
if [ "$profile" = release ]; then
    echo "tui-e2e: $PASSED passed, $FAILED failed (panic test skipped: release build has no hook)"
    [ "$FAILED" -eq 0 ]
    exit
fi
start --two-players
check "new-game screen again" wait_for "New game"
keys Enter
check "board before the panic" wait_for "South · captured 0"
keys '!'
check "panic exits non-zero" wait_re 'EXITED:[1-9]' 
check "terminal restored after panic" wait_for "TTY:COOKED"
check "panic message readable" wait_for "panic requested"

echo "tui-e2e: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
