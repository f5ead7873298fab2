#!/usr/bin/env bash
# End-to-end test of `oware puzzle`: the real binary in a pseudo-terminal
# (a tmux pane of 80x24), driven with keys, its screen read back. One
# puzzle solved (its solution read from the shipped file), one failed (a
# legal wrong move from `oware show`), in English and French; the terminal
# restored on quit; a window too small says so.
set -euo pipefail
cd "$(dirname "$0")/.."
profile="${OWARE_TEST_PROFILE:-ci}"
cargo build --profile "$profile" --locked -q -p oware
BIN="$PWD/target/$profile/oware"
DATA="$PWD/crates/oware-session/data/puzzles.txt"
SESSION="oware-puzzle-e2e"
SOCKET="oware-puzzle-e2e-$$"
tm() { tmux -u -L "$SOCKET" "$@"; }
PASSED=0
FAILED=0
cleanup() { tm kill-server 2>/dev/null || true; }
trap cleanup EXIT

screen() { tm capture-pane -p -t "$SESSION"; }
wait_for() { wait_screen -F "$@"; }
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
start() {
    tm kill-session -t "$SESSION" 2>/dev/null || true
    tm new-session -d -s "$SESSION" -x "${COLS:-80}" -y "${ROWS:-24}" \
        "env LANG=en_US.UTF-8 '$BIN' puzzle $*; \
         echo EXITED:\$?; stty -a | grep -qw -- -icanon && echo TTY:RAW || echo TTY:COOKED; sleep 60"
}
keys() { tm send-keys -t "$SESSION" "$@"; }
# field N of puzzle ID in the shipped file
field() { awk -v id="$1" -v f="$2" '!/^#/ && $1 == id { print $f }' "$DATA"; }
solution() { field "$1" 3 | cut -c1; }
wrong_move() {
    local id="$1" sol
    sol=$(solution "$id")
    "$BIN" show --position "$(field "$id" 2)" --json |
        node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const l=JSON.parse(s).legal.filter(m=>m!==process.argv[1]);console.log(l[0]||"")})' "$sol"
}

tm new-session -d -s keeper -x 80 -y 24 "sleep 3600"

# 1. Puzzle 1, solved.
start --id 1 --lang en
check "puzzle 1 shown" wait_for "Puzzle 1 · rating $(field 1 7)"
check "the task in words" wait_re "(South|North) to move: find the best move"
keys "$(solution 1)"
check "solved" wait_for "Solved! "
check "streak counted" wait_for "Streak 1 (best 1) · solved 1 of 1"
check "themes named" wait_for "Themes: "
keys s
check "the solution line" wait_for "Solution line: $(solution 1)"
# Words of the English screen that the French one may not hold; the check
# finds them on the English screen, so it can fail.
ENGLISH='Solved|Streak|Themes|move|quit|captured|rating'
check "the English-word check finds English" bash -c "tmux -L '$SOCKET' capture-pane -p -t '$SESSION' | grep -qwE '$ENGLISH'"

# 2. The next puzzle, in French, failed.
keys n
check "another puzzle" wait_re "Puzzle [0-9]+ · rating"
id=$(screen | grep -oE 'Puzzle [0-9]+ ·' | head -1 | grep -oE '[0-9]+')
check "a new puzzle id ($id)" test "$id" != 1
keys l
check "French" wait_for "Problème $id · classement"
wrong=$(wrong_move "$id")
check "a wrong legal move ($wrong)" test -n "$wrong"
keys "$wrong"
check "failed, with the solution" wait_re "Pas $wrong.{1,2}: le coup était $(solution "$id")\\."
check "streak back to 0" wait_for "Série 0 (record 1) · 1 résolus sur 2"
check "no English left on the French screen" bash -c "! tmux -L '$SOCKET' capture-pane -p -t '$SESSION' | grep -qwE '$ENGLISH'"
keys q
check "quit" wait_for "EXITED:0"
check "terminal restored" wait_for "TTY:COOKED"

# 3. Bad input and small windows.
start --id 99999
check "an unknown puzzle is refused" wait_re "no puzzle 99999"
COLS=40 ROWS=12 start --id 1 --lang en
check "too small a window says how big to make it" wait_for "Make the window at least 44×14."
keys q
check "quit from too small a window" wait_for "EXITED:0"
unset COLS ROWS

echo "puzzle-tui-e2e: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
