#!/usr/bin/env bash
# End-to-end test of the terminal's study tools, `oware puzzle` and
# `oware learn`: the real binary in a pseudo-terminal (a tmux pane),
# driven with keys, its screen read back (scripts/tmux-lib.sh).
# Puzzles: one solved (its solution read from the shipped file), one
# failed (a legal wrong move from `oware show`), in English and French.
# Lessons: the contents, a lesson's text and board, a move praised and
# explained, a refused move, "show me", the R12 agreement and the R13 lost
# turn, in English at 80x24 and French at 60x20 (a phone). The terminal
# restored on quit; a window too small says so.
set -euo pipefail
cd "$(dirname "$0")/.."
SESSION="oware-puzzle-e2e"
. scripts/tmux-lib.sh
DATA="$PWD/crates/oware-session/data/puzzles.txt"
# start ARGS...: `oware puzzle ARGS` in a fresh pane.
start() { start_pane "env LANG=en_US.UTF-8 '$BIN' puzzle $*"; }
# field N of puzzle ID in the shipped file
field() { awk -v id="$1" -v f="$2" '!/^#/ && $1 == id { print $f }' "$DATA"; }
solution() { field "$1" 3 | cut -c1; }
wrong_move() {
    local id="$1" sol
    sol=$(solution "$id")
    "$BIN" show --position "$(field "$id" 2)" --json |
        node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const l=JSON.parse(s).legal.filter(m=>m!==process.argv[1]);console.log(l[0]||"")})' "$sol"
}

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
check "streak back to 0" wait_for "Série 0 (record 1) · 1 résolu sur 2"
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

# 4. The lessons (`oware learn`).
learn() { start_pane "env LANG=en_US.UTF-8 '$BIN' learn $*"; }
# The screen as one line: the frame's side borders dropped and runs of
# spaces made one, so a sentence wrapped over two lines is found.
joined() { screen | sed 's/^│//; s/│$//' | tr '\n' ' ' | tr -s ' '; }
wait_said() {
    local text="$1" i
    for ((i = 0; i < 150; i++)); do
        if joined | grep -qF -- "$text"; then
            return 0
        fi
        sleep 0.1
    done
    echo "--- timed out waiting for: $text"
    screen
    return 1
}
NB=$'\u00a0'

learn --lang en
check "lessons: the contents" wait_for "Learn Oware: one lesson per rule"
check "lessons: every rule listed" wait_for "R13  Time"
keys Down Down Down Down
keys Enter
check "lessons: R5's text" wait_said "Look at the house where your last seed fell."
snap learn-80x24-en-text
keys Enter
check "lessons: R5's board and task" wait_said "Play D. The last seed makes three in c"
keys d
check "lessons: the move praised and explained from the trace" wait_said "Well done! D: the last seed lands in c and makes 3 there, so it is taken: c 3 + b 2, 5 seeds in all."
check "lessons: the stores after the capture" wait_for "South captured 22"
snap learn-80x24-en-bravo
keys n n n
check "lessons: R8 by n" wait_for "R8 · Feeding an empty row"
keys Tab a
check "lessons: a refused move says why" wait_said "A cannot be played"
keys s
check "lessons: show me plays the lesson's move" wait_said "F: the last seed lands in a and makes 1 there; only two or three are taken."
check "lessons: English words on the English screen" bash -c "tmux -L '$SOCKET' capture-pane -p -t '$SESSION' | grep -qwE 'the|lands|seed'"
keys q
check "lessons: quit" wait_for "EXITED:0"
check "lessons: terminal restored" wait_for "TTY:COOKED"

# French, on a phone-sized terminal.
COLS=60 ROWS=20 learn --lang fr --lesson R12
check "leçons 60x20 : R12's text" wait_said "Arrêter d’un commun accord"
keys Tab
check "leçons 60x20 : the board whole" bash -c "tmux -L '$SOCKET' capture-pane -p -t '$SESSION' | grep -q 'f    e    d    c    b    a'"
check "leçons 60x20 : the agreement offered" wait_said "o arrêter d’un commun accord"
keys o
check "leçons 60x20 : stopped by agreement, 24–24" wait_said "Les joueurs ont convenu d’arrêter, et chacun a pris les graines de son côté."
snap learn-60x20-fr-agreement
keys n
check "leçons 60x20 : R13 by n" wait_for "R13 · Le temps"
keys Tab f
check "leçons 60x20 : a move explained in French" wait_said "F${NB}: la dernière graine tombe en d et y fait 5${NB}; on ne prend que deux ou trois."
keys t
check "leçons 60x20 : a lost turn shown" wait_said "Nord perd son tour (temps). Le plateau reste tel quel${NB}: Sud rejoue."
snap learn-60x20-fr-lost-turn
check "leçons 60x20 : no English left on the French screen" bash -c "! tmux -L '$SOCKET' capture-pane -p -t '$SESSION' | grep -qwE 'the|lands|seed|captured|quit|Well'"
keys q
check "leçons 60x20 : quit" wait_for "EXITED:0"
unset COLS ROWS
learn --lesson R14
check "lessons: an unknown lesson is refused" wait_for "there is no lesson 'R14' (R1 to R13)"
COLS=50 ROWS=16 learn --lang en
check "lessons: too small a window says how big to make it" wait_for "Make the window at least 56×18."
keys q
check "lessons: quit from too small a window" wait_for "EXITED:0"
unset COLS ROWS

finish study-tui-e2e
