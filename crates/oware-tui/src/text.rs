//! The rules screen's text, in English and French.
//!
//! The rules are summarised in the project's own words from the source texts
//! in docs/RULES.md (rule ids as there). French vocabulary, shared with the
//! web app: *case* (house), *grenier* (store), *graine* (seed), *semer*
//! (to sow), *prise* (capture), *prise totale* (grand slam).

pub use oware_session::Lang;

/// The rules screen's title.
pub fn rules_title(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "How to play Oware Abapa",
        Lang::Fr => "Comment jouer à l'awalé (Abapa)",
    }
}

/// The rules, one paragraph per entry (headings start with `#`).
pub fn rules(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::En => RULES_EN,
        Lang::Fr => RULES_FR,
    }
}

/// The key line under the rules screen.
pub fn rules_keys(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "↑↓ PgUp PgDn scroll · g Français · Esc back",
        Lang::Fr => "↑↓ PgPréc PgSuiv défiler · g English · Échap retour",
    }
}

const RULES_EN: &[&str] = &[
    "# The board",
    "Two rows of six houses face each other; your row is the one at the bottom. \
     South's houses are lettered A to F and North's a to f, each row from its \
     owner's left: playing South you have A to F, playing North a to f. Each player also has a store for the seeds they capture. The \
     game starts with four seeds in every house (48 seeds) and empty stores (R1).",
    "# Turns",
    "Who moves first is chosen or drawn by lot; then the players move in turn. A \
     capture never earns an extra turn (R2).",
    "# A move",
    "Pick one of your own houses that holds seeds, lift them all and drop them one \
     at a time into the following houses, going counter-clockwise: rightwards along \
     your row, then leftwards along the opponent's. Seeds are never sown into the \
     stores. With twelve seeds or more you go all the way round, and the house you \
     emptied is passed over each time (R3, R4).",
    "# Capturing",
    "Only the house that got the last seed matters. If it is on the opponent's side \
     and now holds two or three seeds, you take them. Then look at the house just \
     before it: if it is also the opponent's and holds two or three, take those too, \
     and keep going backwards until a house breaks the pattern or you reach the end \
     of their row. Houses that reached two or three earlier in the sowing are not \
     taken on their own account (R5, R6).",
    "# Leave the opponent something",
    "If a capture would take every seed left in the opponent's row (a grand slam), \
     it is called off entirely: the seeds stay where they were sown and play passes \
     on (R7). When the opponent's row is empty at the start of your turn, you must \
     choose a move that sends at least one seed there, if you have one (R8).",
    "# The end",
    "You win as soon as your store reaches 25 seeds; 24 each is a draw (R10).",
    "If the opponent's row is empty and no move of yours can reach it, the game \
     stops and you put the seeds of your own row in your store. More generally, \
     whenever the player to move has no legal move, the game ends and each player \
     stores the seeds still in their own row; the larger total wins, equal totals \
     are a draw (R9).",
    "When a position (the houses and the player to move) occurs for the third time \
     with no capture since its first occurrence, the game ends and each player \
     stores the seeds in their own row (R11). The rule waits while either row is \
     empty, because that side must be fed first: the game goes on until a position \
     occurs for the third time with seeds in both rows.",
    "When play is only going round in circles, the players may agree to stop; each \
     then stores the seeds in their own row (R12). A player may also resign. In \
     every finish the larger total wins.",
    "# Time",
    "A time limit per move may be set: a player who exceeds it loses that turn, and \
     the opponent moves (R13). Games with clocks, online, are lost when the clock \
     runs out. The terminal game has no time limit.",
    "# Tips",
    "Before you move, count where your last seed will fall (the game marks it for \
     you). Then ask what your opponent could take in reply (the game can warn you). \
     A house that builds up a big pile is a resource: later it can reach the far side \
     and feed or capture.",
];

const RULES_FR: &[&str] = &[
    "# Le plateau",
    "Deux rangées de six cases se font face\u{a0}; la vôtre est en bas. Les cases \
     de Sud portent les lettres A à F et celles de Nord a à f, chaque rangée en \
     partant de la gauche de son joueur\u{a0}: avec Sud vous avez A à F, avec Nord \
     a à f. Chaque joueur a aussi un grenier pour \
     les graines qu'il prend. Au départ, chaque case contient quatre graines (48 en \
     tout) et les greniers sont vides (R1).",
    "# Le tour de jeu",
    "Le premier joueur est choisi ou tiré au sort, puis chacun joue à son tour. Une \
     prise ne donne jamais de tour en plus (R2).",
    "# Jouer un coup",
    "Prenez toutes les graines d'une de vos cases non vides et semez-les une par une \
     dans les cases suivantes, dans le sens inverse des aiguilles d'une montre\u{a0}: vers \
     la droite sur votre rangée, puis vers la gauche chez l'adversaire. On ne sème \
     jamais dans les greniers. À partir de douze graines, on fait le tour complet en \
     sautant à chaque fois la case vidée (R3, R4).",
    "# Prendre des graines",
    "Seule compte la case où tombe la dernière graine. Si elle est dans le camp adverse \
     et contient maintenant deux ou trois graines, vous les prenez. Examinez alors la \
     case précédente\u{a0}: si elle est aussi chez l'adversaire avec deux ou trois graines, \
     prenez-les également, et continuez ainsi à reculer jusqu'à une case qui ne convient \
     pas ou jusqu'au bout de sa rangée. Une case passée à deux ou trois plus tôt dans \
     le semis n'est pas prise pour autant (R5, R6).",
    "# Laisser jouer l'adversaire",
    "Si une prise devait vider toute la rangée adverse (une prise totale), elle est \
     annulée en entier\u{a0}: les graines restent où elles ont été semées et la main passe \
     (R7). Si la rangée adverse est vide au début de votre tour, vous devez jouer un \
     coup qui y dépose au moins une graine, s'il en existe un (R8).",
    "# La fin de la partie",
    "Vous gagnez dès que votre grenier atteint 25 graines\u{a0}; à 24 partout, la partie est \
     nulle (R10).",
    "Si la rangée adverse est vide et qu'aucun de vos coups ne peut l'atteindre, la \
     partie s'arrête et vous mettez les graines de votre rangée dans votre grenier. Plus \
     généralement, dès que le joueur qui doit jouer n'a aucun coup possible, la partie \
     s'arrête et chacun met dans son grenier les graines de sa rangée\u{a0}; le plus grand \
     total gagne, et des totaux égaux font une partie nulle (R9).",
    "Quand une position (les cases et le joueur qui doit jouer) se produit pour la \
     troisième fois sans prise depuis sa première apparition, la partie s'arrête et \
     chacun met dans son grenier les graines de sa rangée (R11). La règle attend tant \
     qu'une rangée est vide, car ce côté doit d'abord être nourri\u{a0}: la partie continue \
     jusqu'à ce qu'une position se produise pour la troisième fois avec des graines dans \
     les deux rangées.",
    "Quand la partie ne fait plus que tourner en rond, les joueurs peuvent décider \
     d'arrêter\u{a0}; chacun met alors dans son grenier les graines de sa rangée (R12). Un \
     joueur peut aussi abandonner. Dans tous les cas, le plus grand total gagne.",
    "# Le temps",
    "Une limite de temps par coup peut être fixée\u{a0}: le joueur qui la dépasse perd son \
     tour, et l'adversaire joue (R13). En ligne, avec une pendule, celui dont le temps \
     est écoulé perd la partie. Le jeu en terminal n'a pas de limite de temps.",
    "# Conseils",
    "Avant de jouer, comptez où tombera votre dernière graine (le jeu la signale). \
     Demandez-vous ensuite ce que l'adversaire pourra prendre en réponse (le jeu peut \
     vous prévenir). Une case qui accumule beaucoup de graines est un atout\u{a0}: plus \
     tard, elle pourra atteindre l'autre camp pour le nourrir ou pour prendre.",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_screen_covers_every_rule_in_both_languages() {
        for lang in Lang::ALL {
            let text = rules(lang).join(" ");
            for n in 1..=13 {
                assert!(
                    text.contains(&format!("R{n})")) || text.contains(&format!("R{n},")),
                    "{lang:?} lacks R{n}"
                );
            }
        }
        let en = rules(Lang::En).join(" ");
        assert!(en.contains("never sown into the stores"));
        assert!(en.contains("occurs for the third time"));
        assert!(!en.contains("third repetition") && !en.contains("comes back"));
        assert!(en.contains("A capture never earns an extra turn (R2)"));
        assert!(en.contains("More generally, whenever the player to move has no legal move"));
        assert!(en.contains("The rule waits while either row is empty"));
        let fr = rules(Lang::Fr).join(" ");
        assert!(fr.contains("grenier") && !fr.contains("réserve"));
        assert!(fr.contains("prise totale"));
        assert!(fr.contains("se produit pour la troisième fois"));
        assert!(!fr.contains("lettrée") && !fr.contains("pour elle-même"));
        // French punctuation: a no-break space before ; : ? !
        for p in rules(Lang::Fr) {
            for (i, c) in p.char_indices() {
                if matches!(c, ';' | ':' | '?' | '!') {
                    assert_eq!(p[..i].chars().last(), Some('\u{a0}'), "{p}");
                }
            }
        }
    }
}
