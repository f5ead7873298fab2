#!/usr/bin/env bash
# End-to-end test of `oware play`: the real binary in a pseudo-terminal
# (a tmux pane of 80x24), driven with keys, its screen read back.
set -euo pipefail
cd "$(dirname "$0")/.."
SESSION="oware-e2e"
. scripts/tmux-lib.sh

# start ARGS...: `oware play ARGS` in a fresh pane, in $WORK.
start() {
    start_pane "cd '$WORK' && env OWARE_DATA_DIR='$WORK/data' OWARE_TEST_PANIC_KEY=1 LANG=en_US.UTF-8 '$BIN' play $*"
}

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
check "key line in French" wait_for "⏎ jouer · h conseil · u annuler · r rétablir"
keys '?' g Escape
check "board in English again" wait_for "Your turn (South)"
keys h
check "hint" wait_for "Hint: play"
check "endgame tables said ready" wait_words "Endgame tables ready (up to 14 seeds on the board)." 90
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
no_rule_id_on_screen() { ! screen | grep -E '\(R[0-9]+\)'; }
check "the agreement question names no rule id" no_rule_id_on_screen
keys y
check "game over by agreement" wait_for "The players agreed to stop"
keys q
check "quit after game over" wait_for "EXITED:0"

# 3b. Learn from your mistakes: a game against the computer lost by a
# mistake (D lets North's f capture 5 and reach 26), judged by the coach,
# then tried again: in English at 80x24, in French at 60x20 (a phone).
printf '[Variant "Abapa"]\n[FEN "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S"]\n[Computer "N 4"]\n\n*\n' > "$WORK/mistake.ogn"
for size in 80x24 60x20; do
    COLS="${size%x*}"
    ROWS="${size#*x}"
    if [ "$size" = 80x24 ]; then LG=en; else LG=fr; fi
    t() { if [ "$LG" = en ]; then printf '%s' "$1"; else printf '%s' "$2"; fi; }
    rm -rf "$WORK/data"
    start --lang "$LG" --no-animation --no-tablebases --load "$WORK/mistake.ogn"
    check "$size $LG: the lost game loaded" wait_for "$(t 'Your turn (South)' 'À vous (Sud)')"
    keys d Enter
    check "$size $LG: the computer won with f" wait_for "$(t 'The computer captured 25 seeds or more' "L’ordinateur a capturé 25 graines ou plus")"
    check "$size $LG: the mistakes offered" wait_for "$(t 'e learn from your mistakes' 'e apprendre de ses erreurs')"
    keys e
    check "$size $LG: D comes back as an exercise" wait_for "$(t 'Move 1: you played D, a blunder.' 'Coup 1 : vous avez joué D, une faute grave.' | sed "s/ :/${NB:-$'\u00a0'}:/")"
    screen > "$WORK/mistake-$size.txt"
    keys d
    check "$size $LG: D again is not yet it" wait_for "$(t 'Not yet: D is a blunder' 'Pas encore : D est une faute grave' | sed "s/ :/${NB:-$'\u00a0'}:/")"
    keys s
    # The engine's choice among the moves that win (A and B both win in 1
    # here; which it names depends on its evaluation network).
    check "$size $LG: the best move shown" wait_re "[AB] $(t 'is the best move' 'est le meilleur coup')"
    best=$(screen | grep -oE "[AB] $(t 'is the best move' 'est le meilleur coup')" | head -1 | cut -c1)
    # Said once: the coach's words name it, no second "best move" line.
    check "$size $LG: the best move said once" test "$(screen | sed 's/[│┃]/ /g' | tr '\n' ' ' | tr -s ' ' | grep -o "$(t 'is the best move' 'est le meilleur coup')" | wc -l)" = 1
    keys "$(printf '%s' "$best" | tr 'AB' 'ab')"
    check "$size $LG: $best is better" wait_for "$(t "Better! $best is the best move" "Mieux ! $best est le meilleur coup" | sed "s/ !/${NB:-$'\u00a0'}!/")"
    check "$size $LG: $best's verdict said once" test "$(screen | sed 's/[│┃]/ /g' | tr '\n' ' ' | tr -s ' ' | grep -o "$(t 'is the best move' 'est le meilleur coup')" | wc -l)" = 1
    screen > "$WORK/mistake-$size-better.txt"
    if [ -n "${OWARE_SCREENS_DIR:-}" ]; then
        mkdir -p "$OWARE_SCREENS_DIR"
        cp "$WORK/mistake-$size.txt" "$WORK/mistake-$size-better.txt" "$OWARE_SCREENS_DIR/"
    fi
    keys Escape
    check "$size $LG: back to the game over" wait_for "$(t 'e learn from your mistakes' 'e apprendre de ses erreurs')"
    keys q
    check "$size $LG: quit" wait_for "EXITED:0"
done
unset COLS ROWS

# 4. Every screen at 60x20 and 80x24, in English and French. The French
# screens may hold no English word: every word of the English screens of
# the same size (and a list of common ones) is looked for in them, except
# proper names and words spelled alike in both languages (ALLOWED).
NB=$'\u00a0'
snap() { screen > "$SCREENS/$COLS"x"$ROWS-$LG-$1.txt"; }
# t EN FR: the text of the language being tested.
t() { if [ "$LG" = en ]; then printf '%s' "$1"; else printf '%s' "$2"; fi; }
# Proper names, and words spelled alike in both languages (matched exactly;
# "on" is the French pronoun: the English switches' "(on)" is looked for
# as such).
ALLOWED="Oware Abapa OGN ogn oware Elo UTF English Novice Club Expert Animation animation Question question Position Tables tables six face On on"
# french_clean FILE...: fails, naming them, on English words in the files.
french_clean() {
    python3 - "$ALLOWED" "$@" <<'PY'
import re, sys, glob
allowed = set(sys.argv[1].split())
files = sys.argv[2:]
# File paths (a name typed, a file saved) are not words of the interface.
words = lambda text: set(re.findall(r"[^\W\d_]{2,}", re.sub(r"\S*/\S*", " ", text)))
common = """the you your to of and is are was game move moves level computer save saved
load loaded quit hint undo redo resign rules new start play played captured capture
resume error file cannot could not read does exist folder text turn board store seeds
seed house houses player players wins win draw agreed stop yes no on off marks warn
anim agree back choose change keys press make window least thinking looking good
welcome last over south north it when with while ready endgame""".split()
english = {w.lower() for w in common}
for f in files:
    en = f.replace("-fr-", "-en-")
    for g in glob.glob(en.rsplit("-en-", 1)[0] + "-en-*.txt"):
        english |= {w.lower() for w in words(open(g).read())}
bad = []
for f in files:
    text = open(f).read()
    found = sorted({w for w in words(text) if w.lower() in english and w not in allowed})
    found += [s for s in ("(on)", "(off)") if s in text]
    # French typography: a no-break space before : ; ! ? (a "?" after a
    # plain space is the key, as in "Appuyez sur ? pour les règles").
    found += [repr(m) for m in re.findall(r"[^\W\d_)»][:;!?]|[^\W\d_)»] [:;!]", text)]
    if found:
        bad.append(f"{f.rsplit('/', 1)[-1]}: {' '.join(found)}")
if bad:
    print("--- English words or English typography in French screens:\n" + "\n".join(bad))
    sys.exit(1)
PY
}
board_whole() {
    screen | grep -q "A     B     C     D     E     F" &&
        screen | grep -q "f     e     d     c     b     a" &&
        [ "$(screen | grep -o '│  0 │' | wc -l)" -ge 2 ]
}
for size in 60x20 80x24; do
    COLS="${size%x*}"
    ROWS="${size#*x}"
    for LG in en fr; do
        rm -rf "$WORK/data"
        tag="$size $LG"
        start --lang "$LG" --level 2 --no-animation
        check "$tag: new-game screen" wait_for "$(t 'New game' 'Nouvelle partie')"
        check "$tag: level named with its strength" wait_for "$(t '2 of 10 · Novice' '2 sur 10 · Novice')"
        check "$tag: measured strength" wait_for "$(t 'about 120 Elo above Beginner' 'environ 120 points Elo de plus que Débutant')"
        snap setup
        keys l
        keys -l "$WORK/missing.ogn"
        keys Enter
        check "$tag: load error on the new-game screen" wait_for "$(t 'Could not read the game file' 'Impossible de lire la partie')"
        snap setup-load-error
        keys Enter
        check "$tag: play screen" wait_for "$(t 'Your turn (South)' 'À vous (Sud)')"
        check "$tag: every house and both stores shown" board_whole
        snap play
        keys f Enter
        check "$tag: the computer replied" wait_for "$(t 'Computer played' "L'ordinateur a joué")"
        snap after-move
        keys h
        check "$tag: hint" wait_for "$(t 'Hint: play' 'Conseil')"
        # The hint is whole, to its closing parenthesis, even at 60x20.
        hint_whole() { screen | tr '\n' ' ' | grep -Eq "$(t 'Hint: play' 'Conseil.{0,3}: jouez') [A-F] \([^)]*\)\."; }
        check "$tag: the hint is whole" hint_whole
        snap hint
        keys '?'
        check "$tag: rules" wait_for "$(t 'How to play Oware Abapa' "Comment jouer à l'awalé")"
        snap rules
        keys Escape q
        check "$tag: quit exits 0" wait_for "EXITED:0"
        check "$tag: autosave said on quit" wait_for "$(t 'The unfinished game was saved in' 'La partie inachevée est enregistrée')"
        start --lang "$LG" --no-animation --no-tablebases
        check "$tag: resume offered with the players named" wait_for "$(t 'North: Computer (level 2, Novice)' "Nord${NB}: L'ordinateur (niveau 2, Novice)")"
        snap resume
        keys y x
        check "$tag: resign asked" wait_for "$(t 'Resign this game? y / n' 'Abandonner cette partie')"
        snap prompt
        keys y
        check "$tag: game over" wait_for "$(t 'You resigned.' 'Vous avez abandonné.')"
        keys s Enter
        check "$tag: save confirmed on the game-over panel" wait_for "$(t 'Game saved to' 'Partie enregistrée dans')"
        snap game-over
        keys q
        check "$tag: quit after game over" wait_for "EXITED:0"
        printf 'not a game {' > "$WORK/data/autosave.ogn"
        start --lang "$LG" --no-animation --no-tablebases
        check "$tag: damaged autosave said" wait_for "$(t 'The game saved when you last quit' 'La partie enregistrée à votre départ')"
        check "$tag: damaged autosave set aside" test -s "$WORK/data/autosave.damaged.ogn"
        snap damaged
        keys q
        check "$tag: quit" wait_for "EXITED:0"
    done
    check "$size: no English word in the French screens" french_clean "$SCREENS/$size"-fr-*.txt
    # Only the rules screen names rules by their ids; every other screen
    # says it in words.
    no_rule_id() { ! grep -E '\(R[0-9]+\)' "$@"; }
    check "$size: no rule id outside the rules screen" no_rule_id $(ls "$SCREENS/$size"-*.txt | grep -v -- '-rules\.txt$')
done
# The word check finds English where there is some.
english_is_found() { ! french_clean "$SCREENS/80x24-en-play.txt" > /dev/null; }
check "the English-word check can fail" english_is_found
COLS=50 ROWS=16 start --no-tablebases
check "too small a window says how big to make it" wait_for "Make the window at least 53×18 to play (it is"
keys q
check "quit from too small a window" wait_for "EXITED:0"
unset COLS ROWS

# 5. A panic restores the terminal too. The panic key is a test hook that
# only builds with debug assertions have (the `ci` profile; not `release`).
if [ "${OWARE_TEST_PROFILE:-ci}" = release ]; then
    finish "tui-e2e (panic test skipped: release build has no hook)"
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

finish tui-e2e
