//! Previews and the capture coach: what a move would do, and what the
//! opponent could take in reply. Every rule question is asked of the core
//! (`Position::trace` for the move, `Game::play` for the replies, so R7,
//! R9, R10 and R11 are applied exactly as in the game).

use std::cmp::Reverse;

use oware_core::{Game, House, IllegalMove, Move, Outcome};

use crate::player::Player;
use crate::Lang;

/// Why a move cannot be played: the core's reason, or the game being over.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Refusal {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The move is illegal in the position.
    #[error("{0} ({rule})", rule = .0.rule())]
    Illegal(IllegalMove),
}

impl Refusal {
    /// A stable identifier, the rules core's own ([`IllegalMove::code`]):
    /// `game_over`, `not_your_house`, `empty_house`, `must_feed`. One
    /// vocabulary for the core, the session, the server and its clients.
    pub fn code(self) -> &'static str {
        match self {
            Refusal::GameOver => IllegalMove::GameOver.code(),
            Refusal::Illegal(e) => e.code(),
        }
    }

    /// The rule that forbids the move.
    pub fn rule(self) -> &'static str {
        match self {
            Refusal::GameOver => "R9/R10",
            Refusal::Illegal(r) => r.rule(),
        }
    }

    /// The reason in words, without the rule.
    pub fn reason(self, lang: Lang) -> &'static str {
        let code = self.code();
        match (code, lang) {
            ("game_over", Lang::En) => "the game is over",
            ("game_over", Lang::Fr) => "la partie est finie",
            ("not_your_house", Lang::En) => "that house belongs to the opponent",
            ("not_your_house", Lang::Fr) => "cette case appartient à l'adversaire",
            ("empty_house", Lang::En) => "that house is empty",
            ("empty_house", Lang::Fr) => "cette case est vide",
            (_, Lang::En) => {
                "the opponent's row is empty and this move does not feed it, while another move does"
            }
            (_, Lang::Fr) => {
                "la rangée adverse est vide et ce coup ne la nourrit pas, alors qu'un autre coup le fait"
            }
        }
    }

    /// "F cannot be played: that house is empty." (No rule id in a
    /// sentence for people: the reason says it.)
    pub fn text(self, mv: Move, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{} cannot be played: {}.", mv.letter(), self.reason(lang)),
            Lang::Fr => format!(
                "{} ne peut pas être joué\u{a0}: {}.",
                mv.letter(),
                self.reason(lang)
            ),
        }
    }
}

/// Checks `mv` in `game` (the game being over counts).
pub fn check(game: &Game, mv: Move) -> Result<(), Refusal> {
    if game.is_over() {
        return Err(Refusal::GameOver);
    }
    game.position().check(mv).map_err(Refusal::Illegal)
}

/// What a legal move would do.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Preview {
    /// The move.
    pub mv: Move,
    /// The house of the last seed.
    pub last: House,
    /// Houses captured and the seeds in each (empty when nothing is taken).
    pub captured: Vec<(House, u8)>,
    /// The capture would have taken the opponent's whole row and is
    /// cancelled (R7).
    pub grand_slam: bool,
    /// How the game ends with this move, if it does.
    pub ends: Option<Outcome>,
}

impl Preview {
    /// Seeds the move captures.
    pub fn seeds(&self) -> u8 {
        self.captured.iter().map(|&(_, n)| n).sum()
    }

    /// "A: last seed in E (own row), no capture."
    pub fn text(&self, lang: Lang) -> String {
        let own = self.last.owner() == self.mv.side();
        let row = match (own, lang) {
            (true, Lang::En) => "own row",
            (false, Lang::En) => "opponent's row",
            (true, Lang::Fr) => "votre rangée",
            (false, Lang::Fr) => "rangée adverse",
        };
        let what = if self.grand_slam {
            lang.pick(
                "a grand slam, so nothing is taken",
                "prise totale, donc annulée",
            )
            .to_string()
        } else if self.seeds() > 0 {
            match lang {
                Lang::En => format!("captures {}", self.seeds()),
                Lang::Fr => format!("prend {}", self.seeds()),
            }
        } else {
            lang.pick("no capture", "pas de prise").to_string()
        };
        match lang {
            Lang::En => format!(
                "{}: last seed in {} ({row}), {what}.",
                self.mv.letter(),
                self.last.letter()
            ),
            Lang::Fr => format!(
                "{}\u{a0}: dernière graine en {} ({row}), {what}.",
                self.mv.letter(),
                self.last.letter()
            ),
        }
    }
}

/// What `mv` would do in `game`, from the core's trace.
pub fn preview(game: &Game, mv: Move) -> Result<Preview, Refusal> {
    check(game, mv)?;
    let trace = game.position().trace(mv).map_err(Refusal::Illegal)?;
    let mut next = game.clone();
    next.play(mv).map_err(|_| Refusal::GameOver)?;
    Ok(Preview {
        mv,
        last: trace.last,
        captured: trace.captured,
        grand_slam: trace.grand_slam,
        ends: next.outcome().copied(),
    })
}

/// A capture the opponent could make in reply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Threat {
    /// The opponent's reply.
    pub reply: Move,
    /// The seeds it would capture.
    pub seeds: u8,
}

/// The opponent's best capturing reply to `mv`: the most seeds (ties: the
/// reply nearest the opponent's `a`), or `None` when no reply captures, the
/// game ends with `mv`, or `mv` is illegal. Replies are played with
/// `Game::play`, so a grand slam (R7) captures nothing and a game that
/// `mv` ends (R9, R10, R11) has no reply.
pub fn threat(game: &Game, mv: Move) -> Option<Threat> {
    let mut next = game.clone();
    next.play(mv).ok()?;
    if next.is_over() {
        return None;
    }
    next.legal_moves()
        .into_iter()
        .filter_map(|reply| {
            let mut g = next.clone();
            let seeds = g.play(reply).ok()?;
            (seeds > 0).then_some(Threat { reply, seeds })
        })
        .max_by_key(|t| (t.seeds, Reverse(t.reply.house().index())))
}

/// The coach's word on a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Advice {
    /// A warning: after the move the opponent can capture.
    GivesCapture {
        /// The move.
        mv: Move,
        /// The opponent's best capture in reply.
        threat: Threat,
    },
    /// The engine's recommended move gives the opponent a capture: a
    /// sacrifice it judges worth it. Not a warning.
    Sacrifice {
        /// The move.
        mv: Move,
        /// The capture it allows.
        threat: Threat,
    },
}

impl Advice {
    /// A stable identifier: `gives_capture` or `sacrifice`.
    pub fn code(self) -> &'static str {
        match self {
            Advice::GivesCapture { .. } => "gives_capture",
            Advice::Sacrifice { .. } => "sacrifice",
        }
    }

    /// True for a warning (as opposed to an explanation).
    pub fn is_warning(self) -> bool {
        matches!(self, Advice::GivesCapture { .. })
    }

    /// The advice in words; `opponent` is the player who would reply.
    pub fn text(self, lang: Lang, opponent: Player) -> String {
        match (self, lang) {
            (Advice::GivesCapture { mv, threat }, Lang::En) => format!(
                "After {}, {} could reply {} and capture {}.",
                mv.letter(),
                opponent.inner(lang),
                threat.reply.letter(),
                threat.seeds
            ),
            (Advice::GivesCapture { mv, threat }, Lang::Fr) => format!(
                "Après {}, {} {} répondre {} et prendre {}.",
                mv.letter(),
                opponent.inner(lang),
                opponent.fr("pourriez", "pourrait"),
                threat.reply.letter(),
                threat.seeds
            ),
            (Advice::Sacrifice { mv, threat }, Lang::En) => format!(
                "{} is the engine's choice: it gives up {} (reply {}) for a better game.",
                mv.letter(),
                threat.seeds,
                threat.reply.letter()
            ),
            (Advice::Sacrifice { mv, threat }, Lang::Fr) => format!(
                "{} est le choix du moteur\u{a0}: il cède {} (réponse {}) pour une meilleure suite.",
                mv.letter(),
                threat.seeds,
                threat.reply.letter()
            ),
        }
    }
}

/// The coach's advice on `mv`, given the engine's `recommended` move in this
/// position if it is known. It never warns about the recommended move: when
/// that move allows a capture, the advice is a [`Advice::Sacrifice`]. `None`
/// when the opponent cannot capture in reply (or `mv` is illegal).
pub fn advice(game: &Game, mv: Move, recommended: Option<Move>) -> Option<Advice> {
    let threat = threat(game, mv)?;
    Some(if recommended == Some(mv) {
        Advice::Sacrifice { mv, threat }
    } else {
        Advice::GivesCapture { mv, threat }
    })
}

/// The most seeds any legal move captures now (0 when none does): with
/// [`Preview::seeds`], whether a move misses a bigger capture.
pub fn best_capture(game: &Game) -> u8 {
    game.legal_moves()
        .into_iter()
        .filter_map(|m| {
            let mut g = game.clone();
            g.play(m).ok()
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::{parse_moves, Position};

    fn at(pos: &str) -> Game {
        Game::new(pos.parse().unwrap())
    }
    fn m(c: char) -> Move {
        Move::from_letter(c).unwrap()
    }

    #[test]
    fn previews_come_from_the_trace() {
        // E2: F captures 2 + 2.
        let g = at("0-0-0-0-0-2-1-1-0-0-4-0-20-20-S");
        let p = preview(&g, m('F')).unwrap();
        assert_eq!(p.last, House::from_letter('b').unwrap());
        assert_eq!(p.seeds(), 4);
        assert_eq!(
            p.text(Lang::En),
            "F: last seed in b (opponent's row), captures 4."
        );
        assert_eq!(
            p.text(Lang::Fr),
            "F\u{a0}: dernière graine en b (rangée adverse), prend 4."
        );
        // E3: a grand slam takes nothing (R7).
        let g = at("1-0-0-0-0-2-1-1-0-0-0-0-21-22-S");
        let p = preview(&g, m('F')).unwrap();
        assert!(p.grand_slam && p.seeds() == 0);
        assert!(p
            .text(Lang::En)
            .contains("a grand slam, so nothing is taken"));
        assert!(!p.text(Lang::En).contains("R7"), "no rule id in a sentence");
        // E9: must feed.
        let g = at("3-0-0-0-0-1-0-0-0-0-0-0-22-22-S");
        let r = preview(&g, m('A')).unwrap_err();
        assert_eq!((r.code(), r.rule()), ("must_feed", "R8"));
        assert!(r
            .text(m('A'), Lang::Fr)
            .starts_with("A ne peut pas être joué"));
        assert_eq!(preview(&g, m('B')).unwrap_err().code(), "empty_house");
    }

    #[test]
    fn r7_cancels_the_reply_capture() {
        let g = at("1-1-0-0-0-1-0-0-0-0-0-2-21-22-S");
        // F (1 seed to a) leaves South A1 B1; North's f (2 seeds) makes A2
        // B2, and the chain would take South's whole row: R7, nothing taken.
        let mut next = g.clone();
        next.play(m('F')).unwrap();
        assert!(next.position().trace(m('f')).unwrap().grand_slam);
        assert_eq!(threat(&g, m('F')), None, "so F is not warned about");
        assert!(advice(&g, m('F'), None).is_none());
        // A (1 seed to B) leaves B2 and F1; f makes A1 B3: B's 3 are taken,
        // South keeps A and F.
        let t = threat(&g, m('A')).unwrap();
        assert_eq!((t.reply, t.seeds), (m('f'), 3));
    }

    #[test]
    fn the_game_ending_on_repetition_leaves_no_reply() {
        // E11: the two seeds chase each other; the 25th ply makes the third
        // occurrence with both rows non-empty, and the game ends (R11). A
        // position-only coach would still see North's reply.
        let start: Position = "0-0-0-0-0-0-1-0-0-0-0-1-23-23-N".parse().unwrap();
        let moves = parse_moves("fAaBbCcDdEeFfAaBbCcDdEeF").unwrap();
        let g = Game::from_moves(start, &moves).unwrap();
        let mut next = g.clone();
        next.play(m('f')).unwrap();
        assert!(next.is_over(), "f repeats the position a third time (R11)");
        assert_eq!(threat(&g, m('f')), None);
    }

    #[test]
    fn the_recommended_move_is_never_warned_about() {
        // After D, North's f captures (E8-like).
        let g = at("1-2-0-1-0-0-0-0-0-0-0-2-21-21-S");
        let w = advice(&g, m('D'), None).unwrap();
        assert!(w.is_warning());
        assert_eq!(w.code(), "gives_capture");
        assert!(w
            .text(Lang::En, Player::Computer)
            .starts_with("After D, Computer could reply f"));
        assert!(w
            .text(Lang::Fr, Player::Computer)
            .starts_with("Après D, l'ordinateur pourrait répondre f"));
        assert!(w.text(Lang::Fr, Player::You).contains("vous pourriez"));
        let s = advice(&g, m('D'), Some(m('D'))).unwrap();
        assert!(!s.is_warning());
        assert_eq!(s.code(), "sacrifice");
        // Another move recommended: D is still warned about.
        assert!(advice(&g, m('D'), Some(m('A'))).unwrap().is_warning());
    }

    #[test]
    fn best_capture_now() {
        assert_eq!(best_capture(&at("0-0-0-0-0-2-1-1-0-0-4-0-20-20-S")), 4);
        assert_eq!(best_capture(&Game::new(Position::start())), 0);
    }
}
