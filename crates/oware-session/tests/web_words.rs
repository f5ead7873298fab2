//! The end of a game is worded once: the phrases of
//! `words::end_reason` are the web page's `why.*` words
//! (crates/oware-server/web/js/i18n.js), in English and French, so the
//! terminal, the command line and the browser say the same thing.

use oware_core::{parse_moves, EndReason, Game, Position, Side};
use oware_session::{words::end_reason, Lang};

const I18N: &str = include_str!("../../oware-server/web/js/i18n.js");

/// The web's text of `key` in `lang` (the English table comes first in
/// the file, the French second).
fn web(key: &str, lang: Lang) -> String {
    let needle = format!("'{key}': '");
    let mut found = I18N.match_indices(&needle).map(|(at, _)| at);
    let at = match lang {
        Lang::En => found.next(),
        Lang::Fr => found.nth(1),
    }
    .unwrap_or_else(|| panic!("{key} ({lang:?}) is not in i18n.js"));
    let rest = &I18N[at + needle.len()..];
    rest[..rest.find('\'').expect("a closing quote")].to_string()
}

fn game(start: &str, moves: &str) -> Game {
    let start: Position = start.parse().unwrap();
    Game::from_moves(start, &parse_moves(moves).unwrap()).unwrap()
}

#[test]
fn the_terminal_and_the_web_say_why_a_game_ended_alike() {
    // E8: North reaches 26 (majority); E10: no move feeds (no-moves);
    // E11: the third occurrence (repetition); 24 each (even-split).
    let majority = game("1-2-0-1-0-0-0-0-0-0-0-2-21-21-N", "f");
    let no_moves = game("1-0-0-0-1-0-0-0-0-0-0-0-23-23-S", "");
    let repetition = game(
        "0-0-0-0-0-0-1-0-0-0-0-1-23-23-N",
        "fAaBbCcDdEeFfAaBbCcDdEeFf",
    );
    let even = game("0-0-0-0-0-0-0-0-0-0-0-0-24-24-S", "");
    let mut agreed = game("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "Ff");
    agreed.agree_to_stop().unwrap();
    let mut resigned = game("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "F");
    resigned.resign(Side::North).unwrap();
    let cases = [
        (&majority, EndReason::Majority, "majority"),
        (&no_moves, EndReason::NoMoves, "no-moves"),
        (&repetition, EndReason::Repetition, "repetition"),
        (&even, EndReason::EvenSplit, "even-split"),
        (&agreed, EndReason::Agreement, "agreement"),
        (&resigned, EndReason::Resignation, "resignation"),
    ];
    for (g, reason, key) in cases {
        assert_eq!(g.outcome().unwrap().reason, reason, "{key}");
        for lang in [Lang::En, Lang::Fr] {
            let said = end_reason(g, None, lang);
            match reason {
                // Said of a player: "you", or a side's name ({side}).
                EndReason::Majority | EndReason::Resignation => {
                    let side = match reason {
                        EndReason::Majority => g.outcome().unwrap().winner.unwrap(),
                        _ => Side::North,
                    };
                    let name = oware_session::player::side_name(side, lang);
                    assert_eq!(
                        said.replace(name, "{side}"),
                        web(&format!("why.{key}.side"), lang),
                        "{key} {lang:?}"
                    );
                    let you = end_reason(g, Some(side.opponent()), lang);
                    assert_eq!(you, web(&format!("why.{key}.you"), lang), "{key}");
                }
                _ => assert_eq!(said, web(&format!("why.{key}"), lang), "{key} {lang:?}"),
            }
            assert!(!said.contains("(R"), "{said}");
        }
    }
}
