//! Render tests on ratatui's TestBackend: what the player sees.

use oware_core::{parse_moves, Game, Position, Record};
use oware_tui::app::{App, Opponent, Settings, Start};
use oware_tui::text::Lang;
use oware_tui::ui;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| ui::draw(f, app)).unwrap();
    let buf = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn key(app: &mut App, c: KeyCode) {
    app.on_key(KeyEvent::new(c, KeyModifiers::NONE));
}

fn settings(opponent: Opponent) -> Settings {
    Settings {
        opponent,
        animation: false,
        ..Settings::default()
    }
}

fn loaded(opponent: Opponent, pos: &str, moves: &str) -> App {
    let game = Game::from_moves(
        pos.parse::<Position>().unwrap(),
        &parse_moves(moves).unwrap(),
    )
    .unwrap();
    App::new(
        settings(opponent),
        Start::Load(Box::new(Record::from_game(game, &[]))),
    )
}

fn assert_has(s: &str, needle: &str) {
    assert!(s.contains(needle), "{needle:?} not on screen:\n{s}");
}

/// Whether `s` holds a rule id in parentheses, "(R12)": the rules screen
/// and the lessons name the rules; other messages say it in words.
fn has_rule_id(s: &str) -> bool {
    s.match_indices("(R").any(|(at, _)| {
        let rest = &s[at + 2..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with(')')
    })
}

#[test]
fn the_rule_id_check_finds_one() {
    assert!(has_rule_id("stop here (R12): each"));
    assert!(!has_rule_id("lessons (R1 to R13), (R) and R12"));
}

#[test]
fn board_at_80x24_shows_rows_letters_stores_turn_and_moves() {
    let start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
    let mut app = loaded(Opponent::TwoPlayers, start, "");
    key(&mut app, KeyCode::Char('d'));
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Enter);
    let s = screen(&app, 80, 24);
    // North's row on top, f..a from the left; South's at the bottom, A..F.
    assert_has(&s, "f     e     d    [c]    b     a");
    assert_has(&s, "A     B     C     D     E     F");
    let lines: Vec<&str> = s.lines().collect();
    let top = lines.iter().position(|l| l.contains("f     e")).unwrap();
    let bottom = lines.iter().position(|l| l.contains("A     B")).unwrap();
    assert!(top < bottom);
    // After D c: North's row reads f..a = 5 5 5 0 5 5 as drawn, South's A..F 5 4 4 0 5 5.
    assert!(
        lines[top + 2].contains("│  5 ││  5 ││  5 ││  0 ││  5 ││  5"),
        "{s}"
    );
    assert!(
        lines[top + 5].contains("│  5 ││  4 │║  4 ║│  0 ││  5 ││  5 │"),
        "{s}"
    );
    assert_has(&s, "South · captured 0  ◀ to move");
    assert_has(&s, "North · captured 0");
    // The last move is marked, the move list is OGN movetext.
    assert_has(&s, "[c]");
    assert_has(&s, "1. D c");
    assert_has(&s, "South to move");
    assert!(s.lines().all(|l| l.chars().count() == 80));
}

#[test]
fn cursor_landing_mark_capture_preview_and_warning_are_drawn() {
    // E2's study position: F lands in b and captures 2+2.
    let mut app = loaded(Opponent::TwoPlayers, "0-0-0-0-0-2-1-1-0-0-4-0-20-20-S", "");
    key(&mut app, KeyCode::Char('f'));
    let s = screen(&app, 80, 24);
    assert_has(&s, "╔════╗");
    assert_has(&s, "  1◆│");
    assert_has(&s, "F: last seed in b (opponent's row), captures 4.");
    // A move the engine coach calls a mistake is flagged, once its
    // analysis (asked for on the person's turn) has arrived.
    let mut app = loaded(Opponent::TwoPlayers, "1-2-0-1-0-0-0-0-0-0-0-2-21-21-S", "");
    key(&mut app, KeyCode::Char('d'));
    assert!(!screen(&app, 80, 24).contains("⚠"));
    let req = app.take_requests().pop().expect("the coach's analysis");
    let mut engine = oware_engine::Engine::new(oware_engine::EngineOptions {
        hash_mb: 1,
        tablebase_dir: None,
    });
    let budget = req.analysis.expect("an analysis request");
    let a = oware_session::Analysis::run(
        &mut engine,
        &req.game,
        oware_session::Budget::depth(budget.depth.min(8)),
        &oware_engine::StopHandle::default(),
    )
    .unwrap();
    app.on_analysis(req.id, Ok(std::sync::Arc::new(a)));
    let s = screen(&app, 80, 24);
    assert_has(&s, "⚠ D is a");
    key(&mut app, KeyCode::Char('w'));
    key(&mut app, KeyCode::Char('m'));
    let s = screen(&app, 80, 24);
    assert!(!s.contains("⚠") && !s.contains("◆"), "{s}");
    // An illegal choice shows its reason.
    key(&mut app, KeyCode::Char('c'));
    let s = screen(&app, 80, 24);
    assert_has(&s, "✗ C: that house is empty");
    assert!(!s.contains("(R3)"), "no rule id: {s}");
}

#[test]
fn computer_game_shows_the_thinking_indicator_and_its_row_on_top() {
    let game = Game::from_moves(Position::start(), &parse_moves("F").unwrap()).unwrap();
    let mut record = Record::from_game(game, &[]);
    record.set_tag(oware_tui::store::COMPUTER_TAG, "N 4");
    let app = App::new(
        settings(Opponent::TwoPlayers),
        Start::Load(Box::new(record)),
    );
    assert!(app.computer_thinking());
    let s = screen(&app, 80, 24);
    assert_has(&s, "Computer (level 4, Casual) is thinking");
    assert_has(&s, "Computer (North) · captured 0  ◀ to move");
    assert_has(&s, "You (South) · captured 0");
    assert_has(&s, "You (South) vs Computer, level 4, Casual");
    assert_has(&s, "1. F");
}

#[test]
fn human_playing_north_sees_their_row_at_the_bottom() {
    let mut settings = settings(Opponent::Computer(oware_engine::Level::new(2)));
    settings.first = oware_tui::app::Starter::Computer;
    let mut app = App::new(settings, Start::Setup);
    key(&mut app, KeyCode::Enter);
    let s = screen(&app, 80, 24);
    let lines: Vec<&str> = s.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.contains("F     E     D     C     B     A"))
        .unwrap();
    let bottom = lines
        .iter()
        .position(|l| l.contains("a     b     c     d     e     f"))
        .unwrap();
    assert!(top < bottom, "{s}");
}

#[test]
fn game_over_screen_gives_reason_totals_and_winner() {
    // E10: North is empty and cannot be fed: South takes its 2 (R9).
    let app = loaded(Opponent::TwoPlayers, "1-0-0-0-1-0-0-0-0-0-0-0-23-23-S", "");
    let s = screen(&app, 80, 24);
    assert_has(&s, "Game over");
    assert_has(&s, "The empty row could not be fed");
    assert!(!s.contains("(R9)"), "no rule id: {s}");
    assert_has(&s, "South 25, North 23");
    assert_has(&s, "South wins.");
    assert_has(&s, "n new game");
    // E8 against the computer: North captures and reaches 26 (R10).
    let app = loaded(
        Opponent::Computer(oware_engine::Level::new(1)),
        "1-2-0-1-0-0-0-0-0-0-0-2-21-21-N",
        "f",
    );
    let s = screen(&app, 80, 24);
    assert_has(&s, "The computer captured 25 seeds or more.");
    assert_has(&s, "The computer wins.");
}

#[test]
fn rules_screen_in_english_and_french() {
    let mut app = App::new(settings(Opponent::TwoPlayers), Start::Setup);
    key(&mut app, KeyCode::Char('?'));
    let s = screen(&app, 80, 24);
    assert_has(&s, "How to play Oware Abapa");
    assert_has(&s, "The board");
    assert_has(&s, "counter-clockwise");
    key(&mut app, KeyCode::Char('g'));
    assert_eq!(app.settings.lang, Lang::Fr);
    let s = screen(&app, 80, 24);
    assert_has(&s, "Comment jouer à l'awalé (Abapa)");
    assert_has(&s, "Le plateau");
    assert_has(&s, "sens inverse des aiguilles");
    // Scrolling reaches the end of the text.
    for _ in 0..6 {
        key(&mut app, KeyCode::PageDown);
    }
    let s = screen(&app, 80, 24);
    assert!(!s.contains("Le plateau"), "{s}");
    key(&mut app, KeyCode::Esc);
    assert!(app.rules.is_none());
    // --lang fr from the start.
    let app = App::new(
        Settings {
            lang: Lang::Fr,
            ..settings(Opponent::TwoPlayers)
        },
        Start::Setup,
    );
    let mut app = app;
    key(&mut app, KeyCode::Char('?'));
    assert_has(&screen(&app, 100, 30), "Prendre des graines");
}

#[test]
fn setup_resume_and_larger_terminals() {
    let app = App::new(
        settings(Opponent::Computer(oware_engine::Level::new(7))),
        Start::Setup,
    );
    let s = screen(&app, 80, 24);
    assert_has(&s, "New game");
    assert_has(&s, "7 of 10 · Advanced");
    assert_has(&s, "about 1,330 Elo above Beginner");
    let game = Game::from_moves(Position::start(), &parse_moves("FfBe").unwrap()).unwrap();
    let app = App::new(
        settings(Opponent::TwoPlayers),
        Start::OfferResume(Box::new(Record::from_game(game, &[]))),
    );
    let s = screen(&app, 80, 24);
    // Counted in moves, as the header counts them (four plies: move 3).
    assert_has(&s, "stopped at move 3");
    assert_has(&s, "Resume it? y / n");
    let app = loaded(
        Opponent::TwoPlayers,
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "FfBe",
    );
    let s = screen(&app, 160, 50);
    assert_has(&s, "1. F f");
    assert_has(&s, "2. B e");
    let s = screen(&app, 40, 10);
    assert_has(&s, "at least 53×18");
    assert_has(&s, "(it is 40×10)");
}

#[test]
fn questions_and_the_end_leave_the_board_in_view() {
    let mut app = loaded(
        Opponent::TwoPlayers,
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "FfBe",
    );
    key(&mut app, KeyCode::Char('p'));
    let s = screen(&app, 80, 24);
    assert_has(&s, "Question");
    assert_has(&s, "South proposes to stop here: each takes");
    assert!(!has_rule_id(&s), "a rule id in the question:\n{s}");
    assert_has(&s, "North, do you accept? y / n");
    // The same question in French, in words too.
    let mut fr = App::new(
        french(Opponent::TwoPlayers),
        Start::Load(Box::new(Record::from_game(
            Game::from_moves(Position::start(), &parse_moves("FfBe").unwrap()).unwrap(),
            &[],
        ))),
    );
    key(&mut fr, KeyCode::Char('p'));
    let s = screen(&fr, 80, 24);
    assert_has(&s, "Sud propose d'arrêter ici\u{a0}: chacun prend");
    assert!(!has_rule_id(&s), "a rule id in the question:\n{s}");
    assert_has(&s, "A     B     C     D     E     F");
    // E11: the third repetition ends the game (R11), 24-24.
    let moves = format!("{0}{0}f", "fAaBbCcDdEeF");
    let app = loaded(
        Opponent::TwoPlayers,
        "0-0-0-0-0-0-1-0-0-0-0-1-23-23-N",
        &moves,
    );
    let s = screen(&app, 80, 24);
    assert_has(&s, "Game over");
    assert_has(&s, "The same position occurred for the third time");
    assert!(!s.contains("(R11)"), "no rule id: {s}");
    assert_has(&s, "South 24, North 24.");
    assert_has(&s, "The game is a draw.");
    assert_has(&s, "n new game · u take back · s save · q quit");
    assert_has(&s, "[f]    e     d     c     b     a");
    assert_has(&s, "1... f");
}

#[test]
fn sowing_is_drawn_seed_by_seed_and_captures_as_they_happen() {
    let game = Game::new("0-0-0-0-0-2-1-1-0-0-4-0-20-20-S".parse().unwrap());
    let settings = Settings {
        opponent: Opponent::TwoPlayers,
        ..Settings::default()
    };
    let mut app = App::new(
        settings,
        Start::Load(Box::new(Record::from_game(game, &[]))),
    );
    key(&mut app, KeyCode::Char('f'));
    key(&mut app, KeyCode::Enter);
    app.tick(std::time::Duration::from_millis(200));
    let s = screen(&app, 80, 24);
    assert_has(&s, "Sowing… (any key skips)");
    // The move list shows the move, not yet its capture.
    assert_has(&s, "1. F ");
    assert!(
        !s.contains("F+4"),
        "the capture is listed before it is shown:\n{s}"
    );
    assert_has(&s, "South sows F…");
    // First seed in a (now 2), b still 1; the stores unchanged.
    let row = s.lines().find(|l| l.contains("│  0 ││  4 │")).unwrap();
    assert!(row.contains("│  1 ││  2 │"), "{s}");
    app.tick(std::time::Duration::from_millis(140 + 140 + 450));
    let s = screen(&app, 80, 24);
    assert_has(&s, "South captures 4 (ab)…");
    assert!(app.animating());
    app.tick(std::time::Duration::from_millis(450));
    assert!(!app.animating());
    let s = screen(&app, 80, 24);
    assert_has(&s, "South played F and captured 4 (ab).");
    assert_has(&s, "South · captured 24");
    assert_has(&s, "1. F+4");
}

fn french(opponent: Opponent) -> Settings {
    Settings {
        lang: Lang::Fr,
        ..settings(opponent)
    }
}

/// English words that must not appear on a French screen.
fn assert_french(s: &str) {
    for word in [
        "Board",
        "Moves",
        "Game",
        "captured",
        "to move",
        "play",
        "hint",
        "undo",
        "quit",
        "Your turn",
        "New game",
        "Level",
        "Resume",
        "Press",
        "You",
        "Computer",
        "level",
        "on",
        "off",
        "Saved",
        "error",
    ] {
        assert!(
            !s.split(|c: char| !c.is_alphanumeric()).any(|w| w == word),
            "English {word:?} on a French screen:\n{s}"
        );
    }
}

#[test]
fn every_screen_is_in_french_when_french_is_chosen() {
    // The new-game screen.
    let mut app = App::new(
        french(Opponent::Computer(oware_engine::Level::new(4))),
        Start::Setup,
    );
    let s = screen(&app, 80, 24);
    assert_has(&s, "Nouvelle partie");
    assert_has(&s, "Niveau");
    assert_has(&s, "4 sur 10");
    assert_has(&s, "Qui commence");
    assert_has(&s, "Appuyez sur ? pour les règles du jeu.");
    assert_french(&s);
    // The board, the game panel and the footer.
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('e'));
    let s = screen(&app, 80, 24);
    assert_has(&s, "Plateau");
    assert_has(&s, "Coups");
    assert_has(&s, "Vous (Sud) · grenier 0  ◀ à jouer");
    assert_has(&s, "L'ordinateur (Nord) · grenier 0");
    assert_has(&s, "À vous (Sud)\u{a0}: choisissez une case, Entrée joue.");
    assert_has(
        &s,
        "◆ E\u{a0}: dernière graine en c (rangée adverse), pas de",
    );
    assert_has(
        &s,
        "Vous (Sud) contre l'ordinateur, niveau 4, Amateur · coup 1",
    );
    assert_has(&s, "h conseil · u annuler · r rétablir");
    assert_french(&s);
    // A question.
    key(&mut app, KeyCode::Char('x'));
    let s = screen(&app, 80, 24);
    assert_has(&s, "Abandonner cette partie\u{a0}? o / n");
    // The end.
    key(&mut app, KeyCode::Char('o'));
    let s = screen(&app, 80, 24);
    assert_has(&s, "Partie finie");
    assert_has(&s, "Vous avez abandonné.");
    assert_has(&s, "L'ordinateur gagne.");
    assert_has(&s, "n nouvelle partie");
    assert_french(&s);
    // The resume offer.
    let game = Game::from_moves(Position::start(), &parse_moves("FfBeA").unwrap()).unwrap();
    let app = App::new(
        french(Opponent::TwoPlayers),
        Start::OfferResume(Box::new(Record::from_game(game, &[]))),
    );
    let s = screen(&app, 80, 24);
    assert_has(&s, "Bon retour");
    assert_has(&s, "arrêtée au coup 3.");
    assert_has(&s, "La reprendre\u{a0}? o / n");
    assert_has(&s, "o reprendre · n nouvelle partie · q quitter");
    assert_french(&s);
}

#[test]
fn the_footer_names_the_houses_of_the_persons_side() {
    // Playing North against the computer: a–f.
    let game = Game::from_moves(Position::start(), &parse_moves("F").unwrap()).unwrap();
    let mut record = Record::from_game(game, &[]);
    record.set_tag("Computer", "S 1");
    let app = App::new(
        settings(Opponent::TwoPlayers),
        Start::Load(Box::new(record)),
    );
    let s = screen(&app, 80, 24);
    assert_has(&s, "←→/a-f ⏎ play");
    // South: A–F; between two people, the side to move's letters.
    let mut app = loaded(Opponent::TwoPlayers, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "");
    assert_has(&screen(&app, 80, 24), "←→/A-F ⏎ play");
    key(&mut app, KeyCode::Char('f'));
    key(&mut app, KeyCode::Enter);
    assert_has(&screen(&app, 80, 24), "←→/a-f ⏎ play");
}

#[test]
fn undo_says_what_was_taken_back_in_words() {
    let mut app = loaded(Opponent::TwoPlayers, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "Ff");
    key(&mut app, KeyCode::Char('u'));
    assert_has(&screen(&app, 80, 24), "Took back f. r replays.");
    // Against the computer, the person's move and its reply.
    let game = Game::from_moves(Position::start(), &parse_moves("Ba").unwrap()).unwrap();
    let mut record = Record::from_game(game, &[]);
    record.set_tag("Computer", "N 1");
    let mut app = App::new(
        french(Opponent::TwoPlayers),
        Start::Load(Box::new(record.clone())),
    );
    key(&mut app, KeyCode::Char('u'));
    assert_has(
        &screen(&app, 80, 24),
        "Coups repris\u{a0}: B et a. r rétablit.",
    );
    let mut app = App::new(
        settings(Opponent::TwoPlayers),
        Start::Load(Box::new(record)),
    );
    key(&mut app, KeyCode::Char('u'));
    assert_has(&screen(&app, 80, 24), "Took back B and a. r replays.");
}

#[test]
fn the_key_line_wraps_between_keys_and_keeps_them_all() {
    let mut app = loaded(Opponent::TwoPlayers, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "");
    app.settings.lang = Lang::Fr;
    let help = ui::help_text(&app);
    for (w, h) in [(80, 24), (60, 20)] {
        let s = screen(&app, w, h);
        for item in help.split(" · ") {
            assert_has(&s, item);
        }
    }
    // English fits one line at 80 columns.
    app.settings.lang = Lang::En;
    let s = screen(&app, 80, 24);
    assert_has(&s, &ui::help_text(&app));
}

#[test]
fn a_small_window_gets_the_compact_board_whole() {
    let game = Game::from_moves(Position::start(), &parse_moves("FfB").unwrap()).unwrap();
    let mut record = Record::from_game(game, &[]);
    record.set_tag(oware_tui::store::COMPUTER_TAG, "S 2");
    for lang in [Lang::En, Lang::Fr] {
        let app = App::new(
            Settings {
                lang,
                ..settings(Opponent::TwoPlayers)
            },
            Start::Load(Box::new(record.clone())),
        );
        for (w, h) in [(60, 20), (53, 18)] {
            let s = screen(&app, w, h);
            // Every house, its letter and both stores.
            assert_has(&s, "a     b     c     d     e     f");
            assert_has(&s, "F     E     D     C    [B]    A");
            // The foot of every box: 12 houses and 2 stores.
            let feet = s.matches("╰────╯").count() + s.matches("╚════╝").count();
            assert_eq!(feet, 14, "{s}");
            assert!(s.matches("│  0 │").count() >= 2, "{s}");
            assert!(!s.contains("at least") && !s.contains("au moins"), "{s}");
        }
    }
}

#[test]
fn messages_follow_a_change_of_language() {
    let mut app = loaded(Opponent::TwoPlayers, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "");
    key(&mut app, KeyCode::Char('f'));
    key(&mut app, KeyCode::Enter);
    assert_has(&screen(&app, 80, 24), "South played F.");
    key(&mut app, KeyCode::Char('?'));
    key(&mut app, KeyCode::Char('g'));
    key(&mut app, KeyCode::Esc);
    let s = screen(&app, 80, 24);
    assert_has(&s, "Sud a joué F.");
    assert_french(&s);
}

#[test]
fn a_failed_load_is_said_on_the_new_game_screen() {
    let mut app = App::new(
        french(Opponent::Computer(oware_engine::Level::new(3))),
        Start::Setup,
    );
    key(&mut app, KeyCode::Char('l'));
    for c in "/nonexistent/partie.ogn".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Enter);
    let s = screen(&app, 80, 24);
    assert_has(&s, "Impossible de lire la partie /nonexistent/partie.ogn");
    assert_has(&s, "n'existe pas.");
    assert!(!s.contains("os error"), "{s}");
    assert_french(&s);
}

/// The rows of the screen that draw the board's houses (between the top
/// corner of the first house and the bottom of the last).
fn board_rows(s: &str) -> usize {
    let lines: Vec<&str> = s.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.contains("╭────╮╭────╮"))
        .unwrap();
    let last = lines.iter().rposition(|l| l.contains("╯╰────╯")).unwrap();
    last - first + 1
}

#[test]
fn a_tall_terminal_gets_a_taller_board() {
    let start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
    let app = loaded(Opponent::TwoPlayers, start, "");
    // 80×24: houses three lines tall (two rows of houses, six lines).
    let small = screen(&app, 80, 24);
    assert_eq!(board_rows(&small), 6, "{small}");
    // 100×30: five lines tall, the board fills its side of the screen.
    let tall = screen(&app, 100, 30);
    assert_eq!(board_rows(&tall), 10, "{tall}");
    // The counts and stores are still there, and the game panel below.
    let counts = tall.matches("  4 ").count() + tall.matches("  4◆").count();
    assert_eq!(counts, 12, "{tall}");
    assert_has(&tall, "│  0 │");
    assert_has(&tall, "Game");
}

#[test]
fn a_small_window_keeps_the_news_whole_and_drops_the_preview() {
    for lang in [Lang::En, Lang::Fr] {
        let mut app = App::new(
            Settings {
                lang,
                ..settings(Opponent::TwoPlayers)
            },
            Start::Load(Box::new(Record::from_game(
                Game::new(Position::start()),
                &[],
            ))),
        );
        key(&mut app, KeyCode::Right);
        let preview = match lang {
            Lang::En => "◆ B: last seed",
            Lang::Fr => "◆ B\u{a0}: dernière graine",
        };
        assert_has(&screen(&app, 60, 20), preview);
        // A message of four rows at 60 columns: with the turn line, the
        // five rows under the compact board are full.
        let long = "word ".repeat(44) + "END.";
        app.notify(oware_tui::app::Said::new(
            oware_tui::app::Tone::Info,
            |_| long.clone(),
        ));
        let s = screen(&app, 60, 20);
        assert_has(&s, "END.");
        assert!(!s.contains(preview), "{s}");
        // Where there is room, both.
        let s = screen(&app, 100, 30);
        assert_has(&s, "END.");
        assert_has(&s, preview);
    }
}

#[test]
fn the_tables_being_ready_is_said_once_in_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let loading =
        oware_tablebase::background::open_or_build_in_memory(dir.path().join("none"), 2, |_| {});
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !loading.is_finished() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(loading.ready().is_some());
    for lang in [Lang::En, Lang::Fr] {
        let mut app = App::new(
            Settings {
                lang,
                tables: Some(loading.clone()),
                ..settings(Opponent::TwoPlayers)
            },
            Start::Load(Box::new(Record::from_game(
                Game::new(Position::start()),
                &[],
            ))),
        );
        key(&mut app, KeyCode::Char('f'));
        key(&mut app, KeyCode::Enter);
        app.tick(std::time::Duration::from_millis(10));
        app.tick(std::time::Duration::from_millis(10));
        let (played, ready) = match lang {
            Lang::En => (
                "South played F.",
                "Endgame tables ready (up to 2 seeds on the board).",
            ),
            Lang::Fr => (
                "Sud a joué F.",
                "Tables de finales prêtes (jusqu'à 2 graines sur le plateau).",
            ),
        };
        let message = app.message().unwrap().1.to_string();
        assert_eq!(message, format!("{played} {ready}"));
        // Said in both languages (switching re-words it).
        let s = screen(&app, 60, 20);
        assert_has(&s, "F.");
        assert_has(&s, ready.split(' ').next().unwrap());
    }
}
