//! "Learn from your mistakes": after a game, the moves of one side that the
//! engine coach warns about (a mistake or a blunder, [`Verdict`]) come back
//! as exercises. The web app (`POST /api/v1/mistakes`) and the terminal
//! game both judge a game here: [`candidates`] lists the moves to judge,
//! each is judged by the coach's analysis of the position before it
//! ([`Candidate::judge`]; the analyses come from wherever the front end
//! runs the engine, and are the same ones the coach and the hint read),
//! and [`Exercise::retry`] judges a new try with that same analysis: best
//! or good solves it.

use oware_core::{Game, Move, Ply, Position, Side};

use crate::analysis::{Analysis, Judgement, Verdict};
use crate::Lang;

/// A move of the judged side, with the game before it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The ply (0-based) of the move.
    pub ply: usize,
    /// The game before it.
    pub before: Game,
    /// The move played.
    pub played: Move,
}

/// The moves `side` played in `game` (at most `max` of them, from the
/// start), each with the game before it. Lost turns and positions after
/// the end are skipped.
pub fn candidates(game: &Game, side: Side, max: usize) -> Vec<Candidate> {
    let plies = game.plies();
    let mut before = Game::new(*game.start());
    let mut out = Vec::new();
    for (i, &ply) in plies.iter().enumerate() {
        if out.len() == max || before.is_over() {
            break;
        }
        if let Ply::Move(mv) = ply {
            if before.position().to_move() == side {
                out.push(Candidate {
                    ply: i,
                    before: before.clone(),
                    played: mv,
                });
            }
        }
        let played = match ply {
            Ply::Move(mv) => before.play(mv).map(|_| ()),
            Ply::Pass => before.pass(),
        };
        if played.is_err() {
            break;
        }
    }
    out
}

/// A move the coach warns about, as an exercise: find a better one.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// The ply (0-based) of the move.
    pub ply: usize,
    /// The game before it.
    pub before: Game,
    /// The move played.
    pub played: Move,
    /// The coach's judgement of it (a mistake or a blunder).
    pub judgement: Judgement,
}

impl Candidate {
    /// The exercise this move makes, if the coach warns about it;
    /// `analysis` is the coach's analysis of the position before it.
    pub fn judge(&self, analysis: &Analysis) -> Option<Exercise> {
        let j = analysis.judge(self.played)?;
        j.is_warning().then(|| Exercise {
            ply: self.ply,
            before: self.before.clone(),
            played: self.played,
            judgement: j,
        })
    }
}

/// A new try at an exercise, judged.
#[derive(Clone, Debug)]
pub struct Retry {
    /// Best or good: the exercise is solved.
    pub solved: bool,
    /// The coach's judgement of the try.
    pub judgement: Judgement,
}

impl Retry {
    /// "Better! B is the best move (…)." or "Not yet: D is a mistake (…)."
    pub fn text(&self, lang: Lang, computer: Option<Side>) -> String {
        let head = match (self.solved, lang) {
            (true, Lang::En) => "Better!",
            (true, Lang::Fr) => "Mieux\u{a0}!",
            (false, Lang::En) => "Not yet:",
            (false, Lang::Fr) => "Pas encore\u{a0}:",
        };
        format!("{head} {}", self.judgement.text(lang, computer))
    }
}

impl Exercise {
    /// The position before the move.
    pub fn position(&self) -> Position {
        *self.before.position()
    }

    /// The move's number in the game (1 for the first two plies).
    pub fn move_number(&self) -> usize {
        self.ply / 2 + 1
    }

    /// Judges a new try, `mv`, with `analysis` (the coach's analysis of
    /// the position before the move: the one the exercise came from).
    /// `None` when `mv` is not legal there.
    pub fn retry(&self, analysis: &Analysis, mv: Move) -> Option<Retry> {
        let j = analysis.judge(mv)?;
        Some(Retry {
            solved: matches!(j.verdict, Verdict::Best | Verdict::Good),
            judgement: j,
        })
    }

    /// "Move 12: you played D, a blunder. Find a better move."
    pub fn task(&self, lang: Lang) -> String {
        let (n, m) = (self.move_number(), self.played.letter());
        match lang {
            Lang::En => {
                let what = if self.judgement.verdict == Verdict::Blunder {
                    "a blunder"
                } else {
                    "a mistake"
                };
                format!("Move {n}: you played {m}, {what}. Find a better move.")
            }
            Lang::Fr => {
                let what = if self.judgement.verdict == Verdict::Blunder {
                    "une faute grave"
                } else {
                    "une erreur"
                };
                format!("Coup {n}\u{a0}: vous avez joué {m}, {what}. Trouvez un meilleur coup.")
            }
        }
    }
}

/// The exercises where the player lost most first (the seeds given up on
/// the coach's scale; the game's order breaks ties), at most `n`.
pub fn worst_first(mut exercises: Vec<Exercise>, n: usize) -> Vec<Exercise> {
    exercises.sort_by(|a, b| {
        b.judgement
            .loss
            .total_cmp(&a.judgement.loss)
            .then(a.ply.cmp(&b.ply))
    });
    exercises.truncate(n);
    exercises
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Budget;
    use oware_engine::{Engine, EngineOptions, StopHandle};

    #[test]
    fn the_moves_of_one_side_are_listed_with_the_game_before_them() {
        let moves = oware_core::parse_plies("Ff-aE").unwrap();
        let g = Game::from_plies(Position::start(), &moves).unwrap();
        let south = candidates(&g, Side::South, 10);
        assert_eq!(
            south
                .iter()
                .map(|c| (c.ply, c.played.letter()))
                .collect::<Vec<_>>(),
            vec![(0, 'F'), (4, 'E')]
        );
        assert_eq!(south[1].before.plies().len(), 4);
        let north = candidates(&g, Side::North, 1);
        assert_eq!(north.len(), 1);
        assert_eq!(north[0].played.letter(), 'f');
    }

    #[test]
    fn a_warned_move_is_an_exercise_and_a_better_try_solves_it() {
        // After D, North's f captures 5: D is warned about.
        let g = Game::new("1-2-0-1-0-0-0-0-0-0-0-2-21-21-S".parse().unwrap());
        let d = Move::from_letter('D').unwrap();
        let mut after = g.clone();
        after.play(d).unwrap();
        let mut e = Engine::new(EngineOptions {
            hash_mb: 4,
            tablebase_dir: None,
        });
        let a = Analysis::run(&mut e, &g, Budget::depth(6), &StopHandle::default()).unwrap();
        let c = &candidates(&after, Side::South, 5)[0];
        let ex = c.judge(&a).expect("D is a mistake");
        assert!(ex.task(Lang::En).starts_with("Move 1: you played D, a "));
        let best = a.best().mv;
        let r = ex.retry(&a, best).unwrap();
        assert!(r.solved);
        assert!(r.text(Lang::En, Some(Side::North)).starts_with("Better! "));
        let again = ex.retry(&a, d).unwrap();
        assert!(!again.solved);
        assert!(again
            .text(Lang::Fr, None)
            .starts_with("Pas encore\u{a0}: D est "));
        // The best move is no exercise.
        let mut good = g.clone();
        good.play(best).unwrap();
        assert!(candidates(&good, Side::South, 5)[0].judge(&a).is_none());
        assert_eq!(worst_first(vec![ex.clone(), ex], 1).len(), 1);
    }
}
