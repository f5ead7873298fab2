//! Drawing an [`App`] with ratatui. Reads the app, changes nothing.

use oware_core::{House, Move, Record, Side};
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Padding, Paragraph, Wrap};
use ratatui::Frame;

use oware_session::player::side_name;
use oware_session::{levels, words, Lang, Verdict};

use oware_engine::Level;

use crate::app::{App, Prompt, Screen, Tone};
use crate::store::Players;
use crate::text;

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/// Width of the board panel, borders included.
const BOARD_WIDTH: u16 = 53;

/// The smallest window the game can be played in: the board (its panel is
/// 53 columns by 12 rows), the title, the key line and a few lines of
/// messages. Below it the screen says how big to make the window.
pub const MIN_WIDTH: u16 = BOARD_WIDTH;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 18;

/// True when the window has room for the move list beside the board and
/// a framed game panel under it; smaller windows get the compact layout.
fn roomy(area: Rect) -> bool {
    area.width >= BOARD_WIDTH + 18 && area.height >= 24
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = match app.lang() {
            Lang::En => format!(
                "Make the window at least {MIN_WIDTH}×{MIN_HEIGHT} to play (it is {}×{}). q quits.",
                area.width, area.height
            ),
            Lang::Fr => format!(
                "Agrandissez la fenêtre à au moins {MIN_WIDTH}×{MIN_HEIGHT} pour jouer (elle fait {}×{}). q quitte.",
                area.width, area.height
            ),
        };
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let help_lines = wrap_items(&help_items(app), area.width.saturating_sub(1) as usize);
    let [title, body, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(help_lines.len() as u16),
    ])
    .areas(area);
    frame.render_widget(
        Paragraph::new(title_line(app, title.width as usize))
            .style(Style::new().add_modifier(Modifier::BOLD)),
        title,
    );
    frame.render_widget(
        Paragraph::new(
            help_lines
                .into_iter()
                .map(|l| Line::from(format!(" {l}")))
                .collect::<Vec<_>>(),
        )
        .style(Style::new().fg(Color::DarkGray)),
        help,
    );

    if let Some(scroll) = app.rules {
        draw_rules(frame, app, body, scroll);
        return;
    }
    match app.screen {
        Screen::Resume => draw_resume(frame, app, body),
        Screen::Setup => {
            draw_setup(frame, app, body);
            if let Some(prompt) = &app.prompt {
                draw_prompt(frame, app, centered(body, 60, 6), prompt);
            }
        }
        // On big terminals the game keeps a comfortable size, centred.
        Screen::Play if roomy(area) => draw_play(
            frame,
            app,
            centered(body, body.width.min(100), body.height.min(30)),
        ),
        Screen::Play => draw_play_compact(frame, app, body),
        Screen::Mistakes => draw_mistakes(frame, app, body),
    }
}

/// "Learn from your mistakes": the exercise's board (the person's row at
/// the bottom), the task, the try judged, the best move when asked.
fn draw_mistakes(frame: &mut Frame, app: &App, body: Rect) {
    let lang = app.lang();
    let Some(r) = &app.review else {
        return;
    };
    let count = match &r.exercises {
        Some(e) if !e.is_empty() => match lang {
            Lang::En => format!(" · {} of {}", r.current + 1, e.len()),
            Lang::Fr => format!(" · {} sur {}", r.current + 1, e.len()),
        },
        _ => String::new(),
    };
    let block = panel(&format!(
        "{}{count}",
        lang.pick("Learn from your mistakes", "Apprendre de ses erreurs")
    ));
    let inner = block.inner(body);
    frame.render_widget(block, body);
    let mut y = inner.y;
    if let Some((ex, _)) = r.exercise() {
        let pos = ex.position();
        let side = pos.to_move();
        let cursor = House::of(side, r.cursor);
        let tried = r.tried.as_ref().map(|t| t.judgement.mv);
        let board = crate::learn::mini_board(&pos, side, cursor, tried, lang, inner.width);
        let h = (board.len() as u16).min(inner.height);
        frame.render_widget(Paragraph::new(board), Rect { height: h, ..inner });
        y += h + 1;
    }
    let mut lines: Vec<Line> = Vec::new();
    for (tone, text) in app.review_lines() {
        if !lines.is_empty() {
            lines.push(Line::from(""));
        }
        lines.push(Line::styled(text, tone_style(tone)));
    }
    let rest = Rect {
        y,
        height: inner.height.saturating_sub(y - inner.y),
        ..inner
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), rest);
}

/// The title: the game, the players with the computer's level, the move
/// number; shortened to fit `width`.
fn title_line(app: &App, width: usize) -> Line<'static> {
    let lang = app.lang();
    let name = " Oware Abapa";
    if app.screen != Screen::Play {
        return Line::from(name);
    }
    let number = move_number(app.game());
    let move_no = format!("{} {number}", lang.pick("move", "coup"));
    let (players, level) = match (app.computer(), lang) {
        (Some((c, level)), Lang::En) => (
            format!(
                "You ({}) vs Computer, {}",
                side_name(c.opponent(), lang),
                levels::label(level, lang)
            ),
            levels::label(level, lang),
        ),
        (Some((c, level)), Lang::Fr) => (
            format!(
                "Vous ({}) contre l'ordinateur, {}",
                side_name(c.opponent(), lang),
                levels::label(level, lang)
            ),
            levels::label(level, lang),
        ),
        (None, _) => {
            let p = lang
                .pick(
                    "two players: South vs North",
                    "deux joueurs\u{a0}: Sud contre Nord",
                )
                .to_string();
            (
                p.clone(),
                lang.pick("two players", "deux joueurs").to_string(),
            )
        }
    };
    let candidates = [
        format!("{name} · {players} · {move_no}"),
        format!(" {players} · {move_no}"),
        format!("{name} · {level} · {move_no}"),
        format!(" {level} · {move_no}"),
    ];
    let fits = |t: &String| t.chars().count() <= width;
    let title = candidates
        .iter()
        .find(|t| fits(t))
        .unwrap_or(&candidates[3])
        .clone();
    Line::from(title)
}

/// The number of the move being played, as the move list numbers them
/// (a number for each South move and the North reply after it).
pub fn move_number(game: &oware_core::Game) -> usize {
    let plies = game.plies().len();
    let first_north = game.start().to_move() == Side::North;
    (plies + usize::from(first_north)) / 2 + 1
}

/// The key line at the foot of the screen, as one line.
pub fn help_text(app: &App) -> String {
    help_items(app).join(" · ")
}

/// The keys at the foot of the screen, one entry a key (the key line wraps
/// between entries on narrow windows).
pub fn help_items(app: &App) -> Vec<String> {
    let lang = app.lang();
    let items: Vec<String> = if app.rules.is_some() {
        text::rules_keys(lang)
            .split(" · ")
            .map(String::from)
            .collect()
    } else if app.prompt.is_some() {
        vec![
            lang.pick("answer the question", "répondez à la question")
                .into(),
            lang.pick("Esc cancels", "Échap annule").into(),
        ]
    } else {
        let list: &[(&str, &str)] = match app.screen {
            Screen::Resume => &[
                ("y resume", "o reprendre"),
                ("n new game", "n nouvelle partie"),
                ("q quit", "q quitter"),
            ],
            Screen::Setup => &[
                ("↑↓ choose", "↑↓ choisir"),
                ("←→ change", "←→ changer"),
                ("⏎ start", "⏎ jouer"),
                ("l load", "l charger"),
                ("? rules", "? règles"),
                ("q quit", "q quitter"),
            ],
            Screen::Mistakes => &[
                ("⏎ try", "⏎ essayer"),
                ("n next", "n suivante"),
                ("s best move", "s meilleur coup"),
                ("Esc back to the game", "Échap retour à la partie"),
                ("q quit", "q quitter"),
            ],
            Screen::Play if app.game().is_over() => &[
                ("n new game", "n nouvelle partie"),
                ("u take back", "u annuler"),
                ("s save", "s enregistrer"),
                ("? rules", "? règles"),
                ("q quit", "q quitter"),
            ],
            Screen::Play => &[
                ("⏎ play", "⏎ jouer"),
                ("h hint", "h conseil"),
                ("u undo", "u annuler"),
                ("r redo", "r rétablir"),
                ("x resign", "x abandon"),
                ("s save", "s enregistrer"),
                ("? rules", "? règles"),
                ("q quit", "q quitter"),
            ],
        };
        let mut items: Vec<String> = list
            .iter()
            .map(|(en, fr)| lang.pick(en, fr).into())
            .collect();
        if app.can_review() {
            items.insert(
                0,
                lang.pick("e learn from your mistakes", "e apprendre de ses erreurs")
                    .into(),
            );
        }
        if app.screen == Screen::Mistakes {
            let letters = match app.session().person_side() {
                Side::South => "A-F",
                Side::North => "a-f",
            };
            items[0] = format!("←→/{letters} {}", items[0]);
        }
        if app.screen == Screen::Play && !app.game().is_over() {
            // The letters of the houses the keys choose: a–f when playing North.
            let letters = match app.keys_side() {
                Side::South => "A-F",
                Side::North => "a-f",
            };
            items[0] = format!("←→/{letters} {}", items[0]);
        }
        items
    };
    items
}

/// `items` joined by " · " into lines of at most `width` characters,
/// breaking only between items.
pub(crate) fn wrap_items(items: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for item in items {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 3 + item.chars().count() <= width => {
                line.push_str(" · ");
                line.push_str(item);
            }
            _ => lines.push(item.clone()),
        }
    }
    lines
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

fn panel(title: &str) -> Block<'static> {
    Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(format!(" {title} "))
}

// ---- the play screen -------------------------------------------------------

fn draw_play(frame: &mut Frame, app: &App, body: Rect) {
    let lang = app.lang();
    let [left, right] =
        Layout::horizontal([Constraint::Length(BOARD_WIDTH), Constraint::Min(18)]).areas(body);
    // Taller houses when the screen has the rows for them (a 100×30
    // terminal, say), so the board fills its side instead of leaving half
    // the screen empty.
    let house_rows = if left.height >= 16 + 10 { 5 } else { 3 };
    let [board, info] =
        Layout::vertical([Constraint::Length(2 * house_rows + 6), Constraint::Min(6)]).areas(left);
    frame.render_widget(
        Paragraph::new(board_lines(app, house_rows as usize))
            .block(panel(lang.pick("Board", "Plateau"))),
        board,
    );
    // Questions and the game's end take the place of the game panel, so the
    // board stays in view.
    if let Some(prompt) = &app.prompt {
        draw_prompt(frame, app, info, prompt);
    } else if app.game().is_over() && !app.animating() {
        draw_game_over(frame, app, info, true);
    } else {
        frame.render_widget(
            Paragraph::new(info_lines(
                app,
                info.width.saturating_sub(2),
                info.height.saturating_sub(2),
            ))
            .block(panel(lang.pick("Game", "Partie")))
            .wrap(Wrap { trim: true }),
            info,
        );
    }
    let inner_height = right.height.saturating_sub(2) as usize;
    frame.render_widget(
        Paragraph::new(move_lines(app, inner_height)).block(panel(lang.pick("Moves", "Coups"))),
        right,
    );
}

/// The play screen of a small window: the board (its panel 53 columns by
/// 12 rows) and, under it, the game's lines without a frame; the move list
/// gives way (the last move stays in the game's lines).
fn draw_play_compact(frame: &mut Frame, app: &App, body: Rect) {
    let lang = app.lang();
    let [board, info] = Layout::vertical([Constraint::Length(12), Constraint::Min(1)]).areas(body);
    let board = centered(board, BOARD_WIDTH, 12);
    frame.render_widget(
        Paragraph::new(board_lines(app, 3)).block(panel(lang.pick("Board", "Plateau"))),
        board,
    );
    if let Some(prompt) = &app.prompt {
        draw_prompt(frame, app, info, prompt);
    } else if app.game().is_over() && !app.animating() {
        draw_game_over(frame, app, info, false);
    } else {
        frame.render_widget(
            Paragraph::new(info_lines(app, info.width, info.height)).wrap(Wrap { trim: true }),
            info,
        );
    }
}

/// Where the endgame tables stand, when the computer has some coming.
pub fn tables_line(app: &App) -> Option<String> {
    Some(words::tables(app.tables_state()?, app.lang()))
}

struct Cell {
    count: u8,
    house: House,
}

/// The board, each house `house_rows` lines tall (3, or 5 on tall screens).
fn board_lines(app: &App, house_rows: usize) -> Vec<Line<'static>> {
    let lang = app.lang();
    let view = app.board_view();
    let top = app.bottom().opponent();
    let bottom = app.bottom();
    let to_move = app.game().position().to_move();
    let over = app.game().is_over();
    let cursor = app.cursor_move();
    let landing = app.landing().map(|p| p.last);
    let last = if app.animating() {
        None
    } else {
        app.last_move().map(|(m, _)| m.house())
    };
    let row = |side: Side, rev: bool| -> Vec<Cell> {
        let mut v: Vec<Cell> = (0..6)
            .map(|rel| {
                let house = House::of(side, rel).expect("rel < 6");
                Cell {
                    count: view.houses[house.index()],
                    house,
                }
            })
            .collect();
        if rev {
            v.reverse();
        }
        v
    };
    let top_row = row(top, true);
    let bottom_row = row(bottom, false);

    let house_style = |h: House| -> (Style, bool) {
        if cursor == Some(Move::new(h)) {
            (
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
                true,
            )
        } else if last == Some(h) || view.source == Some(h) {
            (Style::new().fg(Color::Magenta), false)
        } else {
            (Style::new().fg(Color::Gray), false)
        }
    };
    let seed_style = |h: House| -> Style {
        if view.capturing.contains(&h) {
            Style::new()
                .fg(Color::Red)
                .add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else if view.active == Some(h) {
            Style::new()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else if landing == Some(h) {
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    };
    let letter_cell = |h: House| -> Span<'static> {
        let l = h.letter();
        if last == Some(h) {
            Span::styled(format!(" [{l}]  "), Style::new().fg(Color::Magenta))
        } else if cursor == Some(Move::new(h)) {
            Span::styled(
                format!("  {l}   "),
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            )
        } else {
            Span::raw(format!("  {l}   "))
        }
    };
    let box_part = |c: &Cell, part: usize| -> Vec<Span<'static>> {
        let (style, double) = house_style(c.house);
        let (tl, h, tr, v, bl, br) = if double {
            ('╔', '═', '╗', '║', '╚', '╝')
        } else {
            ('╭', '─', '╮', '│', '╰', '╯')
        };
        match part {
            0 => vec![Span::styled(
                format!("{tl}{}{tr}", h.to_string().repeat(4)),
                style,
            )],
            p if p + 1 == house_rows => vec![Span::styled(
                format!("{bl}{}{br}", h.to_string().repeat(4)),
                style,
            )],
            p if p == house_rows / 2 => {
                let mark = if landing == Some(c.house) { "◆" } else { " " };
                vec![
                    Span::styled(v.to_string(), style),
                    Span::styled(format!(" {:>2}", c.count), seed_style(c.house)),
                    Span::styled(mark.to_string(), Style::new().fg(Color::Cyan)),
                    Span::styled(v.to_string(), style),
                ]
            }
            _ => vec![Span::styled(format!("{v}    {v}"), style)],
        }
    };
    let store_label = |side: Side| -> &'static str {
        match app.computer() {
            Some((c, _)) if c == side => lang.pick("cpu", "ordi"),
            Some(_) => lang.pick("you", "vous"),
            None if side == Side::South => "S",
            None => "N",
        }
    };
    let store_rows = 2 * house_rows;
    let store_part = |side: Side, r: usize| -> Span<'static> {
        let n = view.stores[side.index()];
        let text = match r {
            0 => "╭────╮".to_string(),
            r if r + 1 == store_rows => "╰────╯".to_string(),
            r if r + 1 == store_rows / 2 => format!("│ {n:>2} │"),
            r if r == store_rows / 2 => format!("│{:^4}│", store_label(side)),
            _ => "│    │".to_string(),
        };
        Span::styled(text, Style::new().fg(Color::Blue))
    };
    let name_line = |side: Side| -> Line<'static> {
        let name = app.name(side);
        let store = view.stores[side.index()];
        let who = if name == side_name(side, lang) {
            name.to_string()
        } else {
            format!("{name} ({})", side_name(side, lang))
        };
        let captured = match lang {
            Lang::En => format!("{who} · captured {store}"),
            Lang::Fr => format!("{who} · grenier {store}"),
        };
        let mut spans = vec![Span::styled(
            captured,
            Style::new().add_modifier(Modifier::BOLD),
        )];
        if !over && side == to_move && !app.animating() {
            spans.push(Span::styled(
                lang.pick("  ◀ to move", "  ◀ à jouer"),
                Style::new().fg(Color::Yellow),
            ));
        }
        Line::from(spans).alignment(Alignment::Center)
    };

    let mut lines = vec![name_line(top)];
    let mut letters = vec![Span::raw("       ")];
    letters.extend(top_row.iter().map(|c| letter_cell(c.house)));
    lines.push(Line::from(letters));
    for r in 0..store_rows {
        let mut spans = vec![Span::raw(" "), store_part(top, r)];
        let (cells, part) = if r < house_rows {
            (&top_row, r)
        } else {
            (&bottom_row, r - house_rows)
        };
        for c in cells.iter() {
            spans.extend(box_part(c, part));
        }
        spans.push(store_part(bottom, r));
        lines.push(Line::from(spans));
    }
    let mut letters = vec![Span::raw("       ")];
    letters.extend(bottom_row.iter().map(|c| letter_cell(c.house)));
    lines.push(Line::from(letters));
    lines.push(name_line(bottom));
    lines
}

/// The game's lines for an area of `width` × `height` cells: what the turn,
/// the cursor and the last message say always; then, as room allows, the
/// tables' state before the switches and the other keys (a full panel must
/// not hide that the tables are ready or failed).
fn info_lines(app: &App, width: u16, height: u16) -> Vec<Line<'static>> {
    let lang = app.lang();
    let mut lines = Vec::new();
    let pos = app.game().position();
    let to_move = pos.to_move();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let turn = if app.animating() {
        Line::styled(
            lang.pick("Sowing… (any key skips)", "Semis… (une touche l'achève)"),
            Style::new().fg(Color::Green),
        )
    } else if app.game().is_over() {
        Line::styled(lang.pick("Game over.", "Partie finie."), bold)
    } else if app.computer_thinking() {
        let level = app
            .computer()
            .map(|(_, l)| levels::label(l, lang))
            .unwrap_or_default();
        let spin = SPINNER[app.spinner % SPINNER.len()];
        let text = match lang {
            Lang::En => format!("{spin} Computer ({level}) is thinking…"),
            Lang::Fr => format!("{spin} L'ordinateur ({level}) réfléchit…"),
        };
        Line::styled(
            text,
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        )
    } else {
        let side = side_name(to_move, lang);
        let text = match (app.computer().is_some(), lang) {
            (true, Lang::En) => format!("Your turn ({side}): choose a house, Enter plays."),
            (true, Lang::Fr) => {
                format!("À vous ({side})\u{a0}: choisissez une case, Entrée joue.")
            }
            (false, Lang::En) => format!("{side} to move: choose a house, Enter plays."),
            (false, Lang::Fr) => {
                format!("Au tour de {side}\u{a0}: choisissez une case, Entrée joue.")
            }
        };
        Line::styled(text, bold)
    };
    lines.push(turn);

    // What the cursor's house would do, the coach's word on it, and the
    // news (the last message, else the last move). When they do not all
    // fit, the news stays (a hint asked for, a move refused) and the
    // coach's word, then the preview, give way.
    let mut cursor_line = None;
    let mut advice_line = None;
    if let Some(mv) = app.cursor_move() {
        cursor_line = Some(if let Some(refusal) = app.cursor_refusal() {
            Line::styled(format!("✗ {refusal}"), Style::new().fg(Color::Red))
        } else if let Some(preview) = app.landing() {
            Line::styled(
                format!("◆ {}", preview.text(lang)),
                Style::new().fg(Color::Cyan),
            )
        } else {
            let text = match lang {
                Lang::En => format!("{} selected.", mv.letter()),
                Lang::Fr => format!("{} choisie.", mv.letter()),
            };
            Line::from(text)
        });
        if let Some(judgement) = app.advice() {
            let text = judgement.text(lang, app.computer().map(|(side, _)| side));
            advice_line = Some(match judgement.verdict {
                Verdict::Best | Verdict::Good => {
                    Line::styled(format!("✓ {text}"), Style::new().fg(Color::Green))
                }
                Verdict::Inaccuracy => {
                    Line::styled(format!("• {text}"), Style::new().fg(Color::Yellow))
                }
                Verdict::Mistake | Verdict::Blunder => {
                    Line::styled(format!("⚠ {text}"), Style::new().fg(Color::LightRed))
                }
            });
        }
    }
    let news = if let Some((tone, text)) = app.message() {
        Some(Line::styled(text.to_string(), tone_style(tone)))
    } else if let Some((m, k)) = app.last_move() {
        let plus = if k > 0 {
            format!("+{k}")
        } else {
            String::new()
        };
        let label = lang.pick("Last move: ", "Dernier coup\u{a0}: ");
        Some(Line::from(format!("{label}{}{plus}", m.letter())))
    } else {
        None
    };
    let inner = usize::from(width.max(1));
    let rows = |l: &Line| wrapped_rows(&l.to_string(), inner);
    let total = |parts: [&Option<Line<'static>>; 3]| -> usize {
        parts
            .iter()
            .filter_map(|l| l.as_ref())
            .map(rows)
            .sum::<usize>()
    };
    let turn_rows: usize = lines.iter().map(rows).sum();
    let height_rows = usize::from(height);
    if turn_rows + total([&cursor_line, &advice_line, &news]) > height_rows {
        advice_line = None;
    }
    if turn_rows + total([&cursor_line, &advice_line, &news]) > height_rows {
        cursor_line = None;
    }
    lines.extend(cursor_line);
    lines.extend(advice_line);
    lines.extend(news);
    let on = |b: bool| match (b, lang) {
        (true, Lang::En) => "(on)",
        (false, Lang::En) => "(off)",
        (true, Lang::Fr) => "(oui)",
        (false, Lang::Fr) => "(non)",
    };
    let (marks, warn, anim, new, agree, load) = match lang {
        Lang::En => ("m marks", "w warn", "t anim", "n new", "p agree", "l load"),
        Lang::Fr => (
            "m repères",
            "w alertes",
            "t animation",
            "n nouvelle",
            "p accord",
            "l charger",
        ),
    };
    let switches = format!(
        "{marks} {}  {warn} {}  {anim} {}",
        on(app.settings.marks),
        on(app.settings.warnings),
        on(app.settings.animation)
    );
    let more = format!(
        "{new} · {}",
        if app.computer().is_none() {
            agree
        } else {
            load
        }
    );
    let grey = Style::new().fg(Color::DarkGray);
    let mut room = usize::from(height).saturating_sub(lines.iter().map(rows).sum());
    let mut fit = |line: Line<'static>| {
        let need = rows(&line);
        (need <= room).then(|| {
            room -= need;
            line
        })
    };
    let tables = tables_line(app).and_then(|t| fit(Line::styled(t, grey)));
    // One line when it fits the panel (English), two otherwise (French).
    if switches.chars().count() + more.chars().count() + 3 <= inner {
        lines.extend(fit(Line::styled(format!("{switches} · {more}"), grey)));
    } else {
        lines.extend(fit(Line::styled(switches, grey)));
        lines.extend(fit(Line::styled(more, grey)));
    }
    lines.extend(tables);
    lines
}

/// How many rows `text` takes when wrapped at word boundaries to `width`
/// columns (a word longer than the width is cut, as the paragraph does).
pub(crate) fn wrapped_rows(text: &str, width: usize) -> usize {
    let mut rows = 1;
    let mut used = 0;
    for word in text.split_whitespace() {
        let w = word.chars().count();
        let need = if used == 0 { w } else { used + 1 + w };
        if need <= width {
            used = need;
        } else {
            if used > 0 {
                rows += 1;
            }
            rows += (w.saturating_sub(1)) / width;
            used = (w - 1) % width + 1;
        }
    }
    rows
}

/// The movetext of the game in OGN, one move number a line.
///
/// While the animation has not reached the last move's capture, that move
/// is shown without its capture mark (`+2`).
pub fn movetext_lines(app: &App) -> Vec<String> {
    let text = Record::from_game(app.game().clone(), &[]).write();
    let movetext = text.split_once("\n\n").map(|(_, m)| m).unwrap_or("");
    let mut tokens: Vec<&str> = movetext.split_whitespace().collect();
    // The last token is the result; the one before it the last move.
    if app.capture_pending() && tokens.len() >= 2 {
        let i = tokens.len() - 2;
        tokens[i] = tokens[i].split('+').next().unwrap_or(tokens[i]);
    }
    let mut out: Vec<String> = Vec::new();
    for token in tokens.into_iter().filter(|t| *t != "*") {
        let starts_number =
            token.ends_with('.') && token.chars().next().is_some_and(|c| c.is_ascii_digit());
        match out.last_mut() {
            Some(line) if !starts_number => {
                line.push(' ');
                line.push_str(token);
            }
            _ => out.push(format!("{token:>3}")),
        }
    }
    out
}

fn move_lines(app: &App, height: usize) -> Vec<Line<'static>> {
    let lines = movetext_lines(app);
    let skip = lines.len().saturating_sub(height.max(1));
    lines
        .into_iter()
        .skip(skip)
        .map(|l| Line::from(format!(" {l}")))
        .collect()
}

fn tone_style(tone: Tone) -> Style {
    match tone {
        Tone::Info => Style::new(),
        Tone::Warn => Style::new().fg(Color::LightRed),
        Tone::Error => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
    }
}

fn draw_game_over(frame: &mut Frame, app: &App, area: Rect, framed: bool) {
    let mut lines: Vec<Line> = Vec::new();
    let lang = app.lang();
    let end = app.end_lines();
    let result = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    // What was just done here (a save, a failed load) stays in view.
    let news = app
        .message()
        .filter(|(_, text)| !end.iter().any(|l| l == text))
        .map(|(tone, text)| Line::styled(text.to_string(), tone_style(tone)));
    if !framed {
        // A small window: who won and the news first, no frame, no keys
        // (the key line says them).
        let mut end = end.into_iter();
        let (why, totals, winner) = (end.next(), end.next(), end.next());
        lines.extend(winner.map(|l| Line::styled(l, result)));
        lines.extend(news);
        lines.extend(why.map(Line::from));
        lines.extend(totals.map(Line::from));
        frame.render_widget(Clear, area);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
        return;
    }
    for (i, l) in end.into_iter().enumerate() {
        let style = if i == 2 { result } else { Style::new() };
        lines.push(Line::styled(l, style));
    }
    lines.extend(news);
    let review = if app.can_review() {
        lang.pick(
            "e learn from your mistakes · ",
            "e apprendre de ses erreurs · ",
        )
    } else {
        ""
    };
    lines.push(Line::styled(
        format!(
            "{review}{}",
            lang.pick(
                "n new game · u take back · s save · q quit",
                "n nouvelle partie · u annuler · s enregistrer · q quitter",
            )
        ),
        Style::new().fg(Color::DarkGray),
    ));
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(panel(lang.pick("Game over", "Partie finie")).border_type(BorderType::Double)),
        area,
    );
}

fn draw_prompt(frame: &mut Frame, app: &App, area: Rect, prompt: &Prompt) {
    let lang = app.lang();
    let text = match (prompt, lang) {
        (Prompt::ConfirmResign, Lang::En) => "Resign this game? y / n".to_string(),
        (Prompt::ConfirmResign, Lang::Fr) => "Abandonner cette partie\u{a0}? o / n".to_string(),
        (Prompt::ConfirmNew, Lang::En) => {
            "Abandon this game and start a new one? y / n".to_string()
        }
        (Prompt::ConfirmNew, Lang::Fr) => {
            "Laisser cette partie et en commencer une autre\u{a0}? o / n".to_string()
        }
        (Prompt::Agreement { proposer }, _) => {
            let t = app.game().position().totals_with_own_rows();
            let (me, other) = (
                side_name(*proposer, lang),
                side_name(proposer.opponent(), lang),
            );
            match lang {
                Lang::En => format!(
                    "{me} proposes to stop here: each takes the seeds of their own row, {}–{}.\n\n{other}, do you accept? y / n",
                    t[0], t[1]
                ),
                Lang::Fr => format!(
                    "{me} propose d'arrêter ici\u{a0}: chacun prend les graines de sa rangée, {}–{}.\n\n{other}, acceptez-vous\u{a0}? o / n",
                    t[0], t[1]
                ),
            }
        }
        (Prompt::SavePath(t), Lang::En) => {
            format!("Save the game as: {t}▏\n(Enter saves, Esc cancels)")
        }
        (Prompt::SavePath(t), Lang::Fr) => {
            format!("Enregistrer la partie sous\u{a0}: {t}▏\n(Entrée enregistre, Échap annule)")
        }
        (Prompt::LoadPath(t), Lang::En) => {
            format!("Load a game from: {t}▏\n(Enter loads, Esc cancels)")
        }
        (Prompt::LoadPath(t), Lang::Fr) => {
            format!("Charger une partie depuis\u{a0}: {t}▏\n(Entrée charge, Échap annule)")
        }
    };
    frame.render_widget(Clear, area);
    let block = panel("Question").border_style(Style::new().fg(Color::Yellow));
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: false }).block(block),
        area,
    );
}

// ---- other screens ---------------------------------------------------------

fn draw_setup(frame: &mut Frame, app: &App, body: Rect) {
    let lang = app.lang();
    let grey = Style::new().fg(Color::DarkGray);
    // One group a row of the form (the level with its strength).
    let mut rows: Vec<Vec<Line>> = Vec::new();
    for (field, label, value) in app.setup.rows(lang) {
        let focused = field == app.setup.field;
        let style = if focused {
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        let pointer = if focused { "▸ " } else { "  " };
        let text = if label.is_empty() {
            format!("{pointer}[ {value} ]")
        } else if focused {
            format!("{pointer}{label:<13}◀ {value} ▶")
        } else {
            format!("{pointer}{label:<13}  {value}")
        };
        let mut group = vec![Line::styled(text, style)];
        // Under the level, its measured strength.
        if field == 1 {
            let strength = levels::strength(Level::new(app.setup.level), lang);
            // Under the value, or further left on a narrow window.
            let room = usize::from(body.width.min(64).saturating_sub(2));
            let indent = 17.min(room.saturating_sub(strength.chars().count())).max(2);
            group.push(Line::styled(format!("{:indent$}{strength}", ""), grey));
        }
        rows.push(group);
    }
    let mut notes: Vec<Line> = Vec::new();
    // A failed load, or an autosave that could not be read, says so here.
    if let Some((tone, text)) = app.message() {
        notes.push(Line::styled(text.to_string(), tone_style(tone)));
    }
    if let Some(tables) = tables_line(app) {
        notes.push(Line::styled(tables, grey));
    }
    notes.push(Line::styled(
        lang.pick(
            "Press ? for the rules of the game.",
            "Appuyez sur ? pour les règles du jeu.",
        ),
        grey,
    ));
    let width = body.width.min(64);
    let inner = width.saturating_sub(2).max(1) as usize;
    let note_rows: usize = notes.iter().map(|l| l.width().div_ceil(inner).max(1)).sum();
    // Blank lines between the rows when the window has the room.
    let row_lines: usize = rows.iter().map(Vec::len).sum();
    let roomy_rows = row_lines + rows.len() + 1 + note_rows + 2;
    let spaced = roomy_rows <= body.height as usize;
    let mut lines = Vec::new();
    if spaced {
        lines.push(Line::from(""));
    }
    for group in rows {
        lines.extend(group);
        if spaced {
            lines.push(Line::from(""));
        }
    }
    let height = (lines.len() + note_rows + 2) as u16;
    lines.extend(notes);
    let area = centered(body, width, height);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(panel(lang.pick("New game", "Nouvelle partie"))),
        area,
    );
}

fn draw_resume(frame: &mut Frame, app: &App, body: Rect) {
    let lang = app.lang();
    let area = centered(body, 64, 11);
    let mut lines = vec![Line::from("")];
    if let Some(record) = &app.resume {
        let [south, north] = Players::names(record, lang);
        let number = move_number(record.game());
        lines.push(Line::from(lang.pick(
            "An unfinished game was saved when you last quit:",
            "Une partie inachevée a été enregistrée à votre départ\u{a0}:",
        )));
        let (s, n) = (side_name(Side::South, lang), side_name(Side::North, lang));
        let colon = lang.pick(":", "\u{a0}:");
        let bold = Style::new().add_modifier(Modifier::BOLD);
        lines.push(Line::styled(format!("  {s}{colon} {south}"), bold));
        lines.push(Line::styled(format!("  {n}{colon} {north}"), bold));
        lines.push(Line::from(match lang {
            Lang::En => format!("  stopped at move {number}."),
            Lang::Fr => format!("  arrêtée au coup {number}."),
        }));
        lines.push(Line::from(""));
        lines.push(Line::from(
            lang.pick("Resume it? y / n", "La reprendre\u{a0}? o / n"),
        ));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(panel(lang.pick("Welcome back", "Bon retour"))),
        area,
    );
}

fn draw_rules(frame: &mut Frame, app: &App, body: Rect, scroll: u16) {
    let lang = app.settings.lang;
    let mut lines: Vec<Line> = Vec::new();
    for para in text::rules(lang) {
        if let Some(h) = para.strip_prefix("# ") {
            if !lines.is_empty() {
                lines.push(Line::from(""));
            }
            lines.push(Line::styled(
                h.to_string(),
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            ));
        } else {
            lines.push(Line::from(para.to_string()));
        }
    }
    let p = Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .scroll((scroll, 0))
        .block(panel(text::rules_title(lang)).padding(Padding::horizontal(1)));
    frame.render_widget(p, body);
}
