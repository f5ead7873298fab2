//! Drawing an [`App`] with ratatui. Reads the app, changes nothing.

use oware_core::{House, Move, Record, Side};
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Padding, Paragraph, Wrap};
use ratatui::Frame;

use oware_session::player::side_name;
use oware_session::Lang;

use crate::app::{App, Prompt, Screen, Tone};
use crate::text;

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/// Width of the board panel, borders included.
const BOARD_WIDTH: u16 = 53;

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < 60 || area.height < 20 {
        let p = Paragraph::new(app.lang().pick(
            "Please make the terminal at least 80×24 (q quits).",
            "Agrandissez le terminal à au moins 80×24 (q quitte).",
        ))
        .wrap(Wrap { trim: true });
        frame.render_widget(p, area);
        return;
    }
    let [title, body, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(1),
    ])
    .areas(area);
    frame.render_widget(
        Paragraph::new(title_line(app)).style(Style::new().add_modifier(Modifier::BOLD)),
        title,
    );
    frame.render_widget(
        Paragraph::new(help_line(app)).style(Style::new().fg(Color::DarkGray)),
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
        Screen::Play => draw_play(
            frame,
            app,
            centered(body, body.width.min(100), body.height.min(30)),
        ),
    }
}

fn title_line(app: &App) -> Line<'static> {
    let lang = app.lang();
    let mut s = " Oware Abapa".to_string();
    if app.screen == Screen::Play {
        match (app.computer(), lang) {
            (Some((c, level)), Lang::En) => s.push_str(&format!(
                " · You ({}) vs Computer level {}",
                side_name(c.opponent(), lang),
                level.get()
            )),
            (Some((c, level)), Lang::Fr) => s.push_str(&format!(
                " · Vous ({}) contre l'ordinateur niveau {}",
                side_name(c.opponent(), lang),
                level.get()
            )),
            (None, _) => s.push_str(lang.pick(
                " · two players: South vs North",
                " · deux joueurs\u{a0}: Sud contre Nord",
            )),
        }
        let number = move_number(app.game());
        s.push_str(&format!(" · {} {number}", lang.pick("move", "coup")));
    }
    Line::from(s)
}

/// The number of the move being played, as the move list numbers them
/// (a number for each South move and the North reply after it).
pub fn move_number(game: &oware_core::Game) -> usize {
    let plies = game.plies().len();
    let first_north = game.start().to_move() == Side::North;
    (plies + usize::from(first_north)) / 2 + 1
}

/// The key line at the foot of the screen.
pub fn help_text(app: &App) -> String {
    let lang = app.lang();
    if app.rules.is_some() {
        return text::rules_keys(lang).to_string();
    }
    if app.prompt.is_some() {
        return lang
            .pick(
                "answer the question · Esc cancels",
                "répondez à la question · Échap annule",
            )
            .to_string();
    }
    match app.screen {
        Screen::Resume => lang
            .pick(
                "y resume · n new game · q quit",
                "o reprendre · n nouvelle partie · q quitter",
            )
            .to_string(),
        Screen::Setup => lang
            .pick(
                "↑↓ choose · ←→ change · ⏎ start · l load · ? rules · q quit",
                "↑↓ choisir · ←→ changer · ⏎ jouer · l charger · ? règles · q quitter",
            )
            .to_string(),
        Screen::Play if app.game().is_over() => lang
            .pick(
                "n new game · u take back · s save · ? rules · q quit",
                "n nouvelle partie · u reprendre · s enregistrer · ? règles · q quitter",
            )
            .to_string(),
        Screen::Play => {
            // The letters of the houses the keys choose: a–f when playing North.
            let letters = match app.keys_side() {
                Side::South => "A-F",
                Side::North => "a-f",
            };
            match lang {
                Lang::En => format!(
                    "←→/{letters} ⏎ play · h hint · u undo · r redo · x resign · s save · ? rules · q quit"
                ),
                Lang::Fr => format!(
                    "←→/{letters} ⏎ jouer · h indice · u annuler · x abandon · s sauver · ? règles · q fin"
                ),
            }
        }
    }
}

fn help_line(app: &App) -> Line<'static> {
    Line::from(format!(" {}", help_text(app)))
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
        draw_game_over(frame, app, info);
    } else {
        frame.render_widget(
            Paragraph::new(info_lines(app))
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

fn info_lines(app: &App) -> Vec<Line<'static>> {
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
        let level = app.computer().map(|(_, l)| l.get()).unwrap_or(0);
        let spin = SPINNER[app.spinner % SPINNER.len()];
        let text = match lang {
            Lang::En => format!("{spin} Computer (level {level}) is thinking…"),
            Lang::Fr => format!("{spin} L'ordinateur (niveau {level}) réfléchit…"),
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

    if let Some(mv) = app.cursor_move() {
        if let Some(refusal) = app.cursor_refusal() {
            lines.push(Line::styled(
                format!("✗ {refusal}"),
                Style::new().fg(Color::Red),
            ));
        } else if let Some(preview) = app.landing() {
            lines.push(Line::styled(
                format!("◆ {}", preview.text(lang)),
                Style::new().fg(Color::Cyan),
            ));
        } else {
            let text = match lang {
                Lang::En => format!("{} selected.", mv.letter()),
                Lang::Fr => format!("{} choisie.", mv.letter()),
            };
            lines.push(Line::from(text));
        }
        if let Some(judgement) = app.advice() {
            let text = judgement.text(lang, app.computer().map(|(side, _)| side));
            if judgement.is_warning() {
                lines.push(Line::styled(
                    format!("⚠ {text}"),
                    Style::new().fg(Color::LightRed),
                ));
            } else {
                lines.push(Line::styled(
                    format!("✓ {text}"),
                    Style::new().fg(Color::Green),
                ));
            }
        }
    }
    if let Some((tone, text)) = &app.message {
        let style = match tone {
            Tone::Info => Style::new(),
            Tone::Warn => Style::new().fg(Color::LightRed),
            Tone::Error => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        };
        lines.push(Line::styled(text.clone(), style));
    } else if let Some((m, k)) = app.last_move() {
        let plus = if k > 0 {
            format!("+{k}")
        } else {
            String::new()
        };
        let label = lang.pick("Last move: ", "Dernier coup\u{a0}: ");
        lines.push(Line::from(format!("{label}{}{plus}", m.letter())));
    }
    let on = |b: bool| match (b, lang) {
        (true, Lang::En) => "on",
        (false, Lang::En) => "off",
        (true, Lang::Fr) => "oui",
        (false, Lang::Fr) => "non",
    };
    let (marks, warn, anim, new, agree, load) = match lang {
        Lang::En => ("m marks", "w warn", "t anim", "n new", "p agree", "l load"),
        Lang::Fr => (
            "m repères",
            "w alertes",
            "t anim.",
            "n nouvelle",
            "p accord",
            "l charger",
        ),
    };
    let switches = format!(
        "{marks}:{} {warn}:{} {anim}:{}",
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
    // One line when it fits the panel (English), two otherwise (French).
    if switches.chars().count() + more.chars().count() + 3 <= 49 {
        lines.push(Line::styled(format!("{switches} · {more}"), grey));
    } else {
        lines.push(Line::styled(switches, grey));
        lines.push(Line::styled(more, grey));
    }
    lines
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

fn draw_game_over(frame: &mut Frame, app: &App, area: Rect) {
    let mut lines: Vec<Line> = Vec::new();
    let lang = app.lang();
    for (i, l) in app.end_lines().into_iter().enumerate() {
        let style = if i == 2 {
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        lines.push(Line::styled(l, style));
    }
    lines.push(Line::styled(
        lang.pick(
            "n new game · u take back · s save · q quit",
            "n nouvelle partie · u reprendre · s enregistrer · q quitter",
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
                    "{me} proposes to stop here (R12): each takes the seeds of their own row, {}–{}.\n\n{other}, do you accept? y / n",
                    t[0], t[1]
                ),
                Lang::Fr => format!(
                    "{me} propose d'arrêter ici (R12)\u{a0}: chacun prend les graines de sa rangée, {}–{}.\n\n{other}, acceptez-vous\u{a0}? o / n",
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
    let area = centered(body, 56, 12);
    let mut lines = vec![Line::from("")];
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
            format!("{pointer}{label:<12}◀ {value} ▶")
        } else {
            format!("{pointer}{label:<12}  {value}")
        };
        lines.push(Line::styled(text, style));
        lines.push(Line::from(""));
    }
    lines.push(Line::styled(
        lang.pick(
            "Press ? for the rules of the game.",
            "Appuyez sur ? pour les règles du jeu.",
        ),
        Style::new().fg(Color::DarkGray),
    ));
    frame.render_widget(
        Paragraph::new(lines).block(panel(lang.pick("New game", "Nouvelle partie"))),
        area,
    );
}

fn draw_resume(frame: &mut Frame, app: &App, body: Rect) {
    let lang = app.lang();
    let area = centered(body, 64, 9);
    let mut lines = vec![Line::from("")];
    if let Some(record) = &app.resume {
        let south = record.tag("South").unwrap_or_default();
        let north = record.tag("North").unwrap_or_default();
        let number = move_number(record.game());
        lines.push(Line::from(lang.pick(
            "An unfinished game was saved when you last quit:",
            "Une partie inachevée a été enregistrée à votre départ\u{a0}:",
        )));
        let (s, n) = (side_name(Side::South, lang), side_name(Side::North, lang));
        let at = lang.pick("at move", "au coup");
        lines.push(Line::styled(
            format!("{s}: {south} · {n}: {north} · {at} {number}"),
            Style::new().add_modifier(Modifier::BOLD),
        ));
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
