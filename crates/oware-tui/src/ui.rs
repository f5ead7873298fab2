//! Drawing an [`App`] with ratatui. Reads the app, changes nothing.

use oware_core::{House, Move, Record, Side};
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Padding, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::{outcome_lines, App, Prompt, Screen, Tone};

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/// Width of the board panel, borders included.
const BOARD_WIDTH: u16 = 53;

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < 60 || area.height < 20 {
        let p = Paragraph::new("Please make the terminal at least 80×24 (q quits).")
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
    let mut s = " Oware Abapa".to_string();
    if app.screen == Screen::Play {
        match app.computer {
            Some((c, level)) => s.push_str(&format!(
                " · You ({}) vs Computer level {}",
                side_word(c.opponent()),
                level.get()
            )),
            None => s.push_str(" · two players: South vs North"),
        }
        let plies = app.game.plies().len();
        s.push_str(&format!(" · move {}", plies / 2 + 1));
    }
    Line::from(s)
}

fn help_line(app: &App) -> Line<'static> {
    let s = if app.rules.is_some() {
        app.settings.lang.rules_keys()
    } else if app.prompt.is_some() {
        "answer the question · Esc cancels"
    } else {
        match app.screen {
            Screen::Resume => "y resume · n new game · q quit",
            Screen::Setup => "↑↓ choose · ←→ change · ⏎ start · l load · ? rules · q quit",
            Screen::Play if app.game.is_over() => {
                "n new game · u take back · s save · ? rules · q quit"
            }
            Screen::Play => {
                "←→/A-F ⏎ play · h hint · u undo · r redo · x resign · s save · ? rules · q quit"
            }
        }
    };
    Line::from(format!(" {s}"))
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
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
    let [left, right] =
        Layout::horizontal([Constraint::Length(BOARD_WIDTH), Constraint::Min(18)]).areas(body);
    let [board, info] = Layout::vertical([Constraint::Length(12), Constraint::Min(6)]).areas(left);
    frame.render_widget(
        Paragraph::new(board_lines(app)).block(panel("Board")),
        board,
    );
    // Questions and the game's end take the place of the game panel, so the
    // board stays in view.
    if let Some(prompt) = &app.prompt {
        draw_prompt(frame, app, info, prompt);
    } else if app.game.is_over() && !app.animating() {
        draw_game_over(frame, app, info);
    } else {
        frame.render_widget(
            Paragraph::new(info_lines(app))
                .block(panel("Game"))
                .wrap(Wrap { trim: true }),
            info,
        );
    }
    let inner_height = right.height.saturating_sub(2) as usize;
    frame.render_widget(
        Paragraph::new(move_lines(app, inner_height)).block(panel("Moves")),
        right,
    );
}

struct Cell {
    count: u8,
    house: House,
}

fn board_lines(app: &App) -> Vec<Line<'static>> {
    let view = app.board_view();
    let top = app.bottom.opponent();
    let bottom = app.bottom;
    let to_move = app.game.position().to_move();
    let over = app.game.is_over();
    let cursor = app.cursor_move();
    let landing = app.landing().map(|(h, _)| h);
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
            1 => {
                let mark = if landing == Some(c.house) { "◆" } else { " " };
                vec![
                    Span::styled(v.to_string(), style),
                    Span::styled(format!(" {:>2}", c.count), seed_style(c.house)),
                    Span::styled(mark.to_string(), Style::new().fg(Color::Cyan)),
                    Span::styled(v.to_string(), style),
                ]
            }
            _ => vec![Span::styled(
                format!("{bl}{}{br}", h.to_string().repeat(4)),
                style,
            )],
        }
    };
    let store_label = |side: Side| -> &'static str {
        match app.computer {
            Some((c, _)) if c == side => "cpu",
            Some(_) => "you",
            None if side == Side::South => "S",
            None => "N",
        }
    };
    let store_part = |side: Side, r: usize| -> Span<'static> {
        let n = view.stores[side.index()];
        let text = match r {
            0 => "╭────╮".to_string(),
            2 => format!("│ {n:>2} │"),
            3 => format!("│{:^4}│", store_label(side)),
            5 => "╰────╯".to_string(),
            _ => "│    │".to_string(),
        };
        Span::styled(text, Style::new().fg(Color::Blue))
    };
    let name_line = |side: Side| -> Line<'static> {
        let name = app.name(side);
        let store = view.stores[side.index()];
        let who = if name == side_word(side) {
            name
        } else {
            format!("{name} ({})", side_word(side))
        };
        let mut spans = vec![Span::styled(
            format!("{who} · captured {store}"),
            Style::new().add_modifier(Modifier::BOLD),
        )];
        if !over && side == to_move && !app.animating() {
            spans.push(Span::styled("  ◀ to move", Style::new().fg(Color::Yellow)));
        }
        Line::from(spans).alignment(Alignment::Center)
    };

    let mut lines = vec![name_line(top)];
    let mut letters = vec![Span::raw("       ")];
    letters.extend(top_row.iter().map(|c| letter_cell(c.house)));
    lines.push(Line::from(letters));
    for r in 0..6 {
        let mut spans = vec![Span::raw(" "), store_part(top, r)];
        let (cells, part) = if r < 3 {
            (&top_row, r)
        } else {
            (&bottom_row, r - 3)
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
    let mut lines = Vec::new();
    let pos = app.game.position();
    let to_move = pos.to_move();
    let turn = if app.animating() {
        Line::styled("Sowing… (any key skips)", Style::new().fg(Color::Green))
    } else if app.game.is_over() {
        Line::styled("Game over.", Style::new().add_modifier(Modifier::BOLD))
    } else if app.computer_thinking() {
        let level = app.computer.map(|(_, l)| l.get()).unwrap_or(0);
        let spin = SPINNER[app.spinner % SPINNER.len()];
        Line::styled(
            format!("{spin} Computer (level {level}) is thinking…"),
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        )
    } else if app.computer.is_some() {
        Line::styled(
            format!(
                "Your turn ({}): choose a house, Enter plays.",
                side_word(to_move)
            ),
            Style::new().add_modifier(Modifier::BOLD),
        )
    } else {
        Line::styled(
            format!(
                "{} to move: choose a house, Enter plays.",
                side_word(to_move)
            ),
            Style::new().add_modifier(Modifier::BOLD),
        )
    };
    lines.push(turn);

    if let Some(mv) = app.cursor_move() {
        if let Some(refusal) = app.cursor_refusal() {
            lines.push(Line::styled(
                format!("✗ {refusal}"),
                Style::new().fg(Color::Red),
            ));
        } else if let Some((house, n)) = app.landing() {
            let whose = if house.owner() == to_move {
                "own row"
            } else {
                "opponent's row"
            };
            let take = if n > 0 {
                format!("captures {n}")
            } else {
                "no capture".to_string()
            };
            lines.push(Line::styled(
                format!(
                    "◆ {}: last seed in {} ({whose}), {take}.",
                    mv.letter(),
                    house.letter()
                ),
                Style::new().fg(Color::Cyan),
            ));
        } else {
            lines.push(Line::from(format!("{} selected.", mv.letter())));
        }
        if let Some((reply, n)) = app.danger() {
            lines.push(Line::styled(
                format!(
                    "⚠ After {}, {} could reply {} and capture {n}.",
                    mv.letter(),
                    app.name(to_move.opponent()),
                    reply.letter()
                ),
                Style::new().fg(Color::LightRed),
            ));
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
        lines.push(Line::from(format!("Last move: {}{plus}", m.letter())));
    }
    let on = |b: bool| if b { "on" } else { "off" };
    let mut aids = format!(
        "m marks:{} w warn:{} t anim:{} · n new",
        on(app.settings.marks),
        on(app.settings.warnings),
        on(app.settings.animation)
    );
    aids.push_str(if app.computer.is_none() {
        " · p agree"
    } else {
        " · l load"
    });
    lines.push(Line::styled(aids, Style::new().fg(Color::DarkGray)));
    lines
}

/// The movetext of the game in OGN, one move number a line.
pub fn movetext_lines(app: &App) -> Vec<String> {
    let text = Record::from_game(app.game.clone(), &[]).write();
    let movetext = text.split_once("\n\n").map(|(_, m)| m).unwrap_or("");
    let mut out: Vec<String> = Vec::new();
    for token in movetext.split_whitespace().filter(|t| *t != "*") {
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
    for (i, l) in outcome_lines(&app.game, app.computer)
        .into_iter()
        .enumerate()
    {
        let style = if i == 2 {
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        lines.push(Line::styled(l, style));
    }
    lines.push(Line::styled(
        "n new game · u take back · s save · q quit",
        Style::new().fg(Color::DarkGray),
    ));
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(panel("Game over").border_type(BorderType::Double)),
        area,
    );
}

fn draw_prompt(frame: &mut Frame, app: &App, area: Rect, prompt: &Prompt) {
    let text = match prompt {
        Prompt::ConfirmResign => "Resign this game? y / n".to_string(),
        Prompt::ConfirmNew => "Abandon this game and start a new one? y / n".to_string(),
        Prompt::Agreement { proposer } => {
            let t = app.game.position().totals_with_own_rows();
            format!(
                "{} proposes to stop here (R12): each takes the seeds of their own row, {}–{}.\n\n{}, do you accept? y / n",
                side_word(*proposer),
                t[0],
                t[1],
                side_word(proposer.opponent())
            )
        }
        Prompt::SavePath(t) => format!("Save the game as: {t}▏\n(Enter saves, Esc cancels)"),
        Prompt::LoadPath(t) => format!("Load a game from: {t}▏\n(Enter loads, Esc cancels)"),
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
    let area = centered(body, 56, 12);
    let mut lines = vec![Line::from("")];
    for (field, label, value) in app.setup.rows() {
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
        "Press ? for the rules of the game.",
        Style::new().fg(Color::DarkGray),
    ));
    frame.render_widget(Paragraph::new(lines).block(panel("New game")), area);
}

fn draw_resume(frame: &mut Frame, app: &App, body: Rect) {
    let area = centered(body, 60, 9);
    let mut lines = vec![Line::from("")];
    if let Some(record) = &app.resume {
        let south = record.tag("South").unwrap_or_default();
        let north = record.tag("North").unwrap_or_default();
        let n = record.game.plies().len();
        lines.push(Line::from(
            "An unfinished game was saved when you last quit:",
        ));
        lines.push(Line::styled(
            format!("South: {south} · North: {north} · {n} moves played"),
            Style::new().add_modifier(Modifier::BOLD),
        ));
        lines.push(Line::from(""));
        lines.push(Line::from("Resume it? y / n"));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(panel("Welcome back")),
        area,
    );
}

fn draw_rules(frame: &mut Frame, app: &App, body: Rect, scroll: u16) {
    let lang = app.settings.lang;
    let mut lines: Vec<Line> = Vec::new();
    for para in lang.rules() {
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
        .block(panel(lang.rules_title()).padding(Padding::horizontal(1)));
    frame.render_widget(p, body);
}
