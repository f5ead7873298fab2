//! What went wrong, in words for people: a file the system could not read
//! or write, a game record that does not read. The system's own messages
//! ("No such file or directory (os error 2)") are never shown as they are.

use std::io;

use oware_core::{
    GameError, OgnError, OgnErrorKind, ParseMoveError, ParsePositionError, PositionError,
};

use crate::coach::Refusal;
use crate::Lang;

/// Why a file operation failed, as a phrase: "the file does not exist",
/// "le fichier n'existe pas".
pub fn io_reason(err: &io::Error, lang: Lang) -> String {
    use io::ErrorKind as K;
    let (en, fr) = match err.kind() {
        K::NotFound => ("it does not exist", "il n'existe pas"),
        K::PermissionDenied => ("you do not have permission", "vous n'en avez pas le droit"),
        K::AlreadyExists => ("it already exists", "il existe déjà"),
        K::InvalidData => (
            "it is not a text file (UTF-8)",
            "ce n'est pas un fichier texte (UTF-8)",
        ),
        K::IsADirectory => (
            "it is a folder, not a file",
            "c'est un dossier, pas un fichier",
        ),
        K::NotADirectory => (
            "a part of the path is not a folder",
            "une partie du chemin n'est pas un dossier",
        ),
        K::StorageFull => ("the disk is full", "le disque est plein"),
        K::ReadOnlyFilesystem => ("the disk is read-only", "le disque est en lecture seule"),
        K::InvalidInput | K::InvalidFilename => {
            ("the name is not valid here", "ce nom n'est pas valide ici")
        }
        K::Interrupted => ("it was interrupted", "l'opération a été interrompue"),
        _ => {
            return match (err.raw_os_error(), lang) {
                (Some(code), Lang::En) => format!("the system refused (code {code})"),
                (Some(code), Lang::Fr) => format!("le système a refusé (code {code})"),
                (None, _) => lang
                    .pick(
                        "the system reported an input/output failure",
                        "le système a signalé un échec d'entrée-sortie",
                    )
                    .to_string(),
            }
        }
    };
    lang.pick(en, fr).to_string()
}

/// Why a position string does not read, in `lang`: the core's own
/// sentence in English, its French here.
pub fn position_error(err: &ParsePositionError, lang: Lang) -> String {
    if lang == Lang::En {
        return err.to_string();
    }
    let field_name = |field: usize| match field {
        1..=12 => format!(
            "la case {}",
            oware_core::House::new(field - 1)
                .map(|h| h.letter())
                .unwrap_or('?')
        ),
        13 => "le grenier de Sud".to_string(),
        14 => "le grenier de Nord".to_string(),
        _ => format!("le champ {field}"),
    };
    match err {
        ParsePositionError::FieldCount { found } => format!(
            "une chaîne de position a 15 champs séparés par «\u{a0}-\u{a0}» (12 cases, 2 greniers, le camp qui joue), {found} trouvé{}",
            if *found > 1 { "s" } else { "" }
        ),
        ParsePositionError::BadCount { field, column, text } => format!(
            "{} (champ {field}), colonne {column}\u{a0}: un nombre de graines de 0 à 48 est attendu, pas «\u{a0}{text}\u{a0}»",
            field_name(*field)
        ),
        ParsePositionError::BadSide { column, text } => format!(
            "le camp qui joue (champ 15), colonne {column}\u{a0}: S ou N est attendu, pas «\u{a0}{text}\u{a0}»"
        ),
        ParsePositionError::Invalid(PositionError::WrongTotal { total }) => format!(
            "position impossible\u{a0}: les cases et les greniers contiennent {total} graines en tout, il en faut exactement 48"
        ),
    }
}

/// Why a move list does not read, in `lang`.
pub fn moves_error(err: &ParseMoveError, lang: Lang) -> String {
    if lang == Lang::En {
        return err.to_string();
    }
    match err {
        ParseMoveError::BadLetter { found, column } => format!(
            "une lettre de coup de A à F ou de a à f est attendue colonne {column}, pas «\u{a0}{found}\u{a0}»"
        ),
        ParseMoveError::Empty => {
            "une lettre de coup de A à F ou de a à f est attendue, il n'y a rien".to_string()
        }
        ParseMoveError::TooLong { text } => format!(
            "une seule lettre de coup de A à F ou de a à f est attendue, pas «\u{a0}{text}\u{a0}»"
        ),
    }
}

/// What is wrong in a game record, and where: "line 3, column 7: move F
/// cannot be played: that house is empty (R3)".
pub fn ogn_error(err: &OgnError, lang: Lang) -> String {
    let fr = lang == Lang::Fr;
    let what = match &err.kind {
        OgnErrorKind::BadTag(t) if fr => {
            format!("étiquette mal formée « {t} »\u{a0}: attendu [Nom \"valeur\"]")
        }
        OgnErrorKind::BadTag(t) => format!("malformed tag “{t}”: expected [Name \"value\"]"),
        OgnErrorKind::BadFen(_) if fr => "l'étiquette FEN n'est pas une position valide".into(),
        OgnErrorKind::BadFen(_) => "the FEN tag is not a valid position".into(),
        OgnErrorKind::Unexpected(c) if fr => format!("caractère inattendu « {c} »"),
        OgnErrorKind::Unexpected(c) => format!("unexpected character “{c}”"),
        OgnErrorKind::Unterminated(_) if fr => {
            "un commentaire ou une variante n'est pas refermé".into()
        }
        OgnErrorKind::Unterminated(_) => "a comment or variation is not closed".into(),
        OgnErrorKind::Move(GameError::Illegal { mv, reason }) => {
            let text = Refusal::Illegal(*reason).text(*mv, lang);
            text.trim_end_matches('.').to_string()
        }
        OgnErrorKind::Move(_) if fr => "un coup suit la fin de la partie".into(),
        OgnErrorKind::Move(_) => "a move follows the end of the game".into(),
        OgnErrorKind::CaptureMark {
            mv,
            written,
            actual,
        } if fr => format!("le coup {mv} est noté +{written} mais prend {actual}"),
        OgnErrorKind::CaptureMark {
            mv,
            written,
            actual,
        } => format!("move {mv} is marked +{written} but captures {actual}"),
        OgnErrorKind::BadResult(r) if fr => {
            format!("résultat « {r} » illisible\u{a0}: attendu des totaux comme 25-23, ou *")
        }
        OgnErrorKind::BadResult(r) => {
            format!("unreadable result “{r}”: expected totals like 25-23, or *")
        }
        OgnErrorKind::ResultMismatch(_) if fr => {
            "le résultat noté ne correspond pas à la fin de la partie".into()
        }
        OgnErrorKind::ResultMismatch(_) => {
            "the result written does not match how the game ends".into()
        }
        OgnErrorKind::BadTermination(t) if fr => format!("fin de partie inconnue « {t} »"),
        OgnErrorKind::BadTermination(t) => format!("unknown Termination “{t}”"),
        OgnErrorKind::BadWinner(t) if fr => {
            format!("étiquette Winner « {t} »\u{a0}: attendu S ou N")
        }
        OgnErrorKind::BadWinner(t) => format!("Winner tag “{t}”: expected S or N"),
        OgnErrorKind::Empty if fr => "aucune partie trouvée".into(),
        OgnErrorKind::Empty => "no game found".into(),
        OgnErrorKind::TrailingGame if fr => {
            "une seconde partie suit\u{a0}; une seule attendue".into()
        }
        OgnErrorKind::TrailingGame => "a second game follows; only one was expected".into(),
    };
    match lang {
        Lang::En => format!("line {}, column {}: {what}", err.line, err.column),
        Lang::Fr => format!("ligne {}, colonne {}\u{a0}: {what}", err.line, err.column),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::Record;

    #[test]
    fn system_errors_become_sentences() {
        let missing = std::fs::read_to_string("/nonexistent/oware/x.ogn").unwrap_err();
        assert_eq!(io_reason(&missing, Lang::En), "it does not exist");
        assert_eq!(io_reason(&missing, Lang::Fr), "il n'existe pas");
        let other = io::Error::from_raw_os_error(5);
        let text = io_reason(&other, Lang::En);
        assert!(!text.contains("os error"), "{text}");
    }

    #[test]
    fn record_errors_in_both_languages() {
        let err = Record::parse("1. F F").unwrap_err();
        let en = ogn_error(&err, Lang::En);
        let fr = ogn_error(&err, Lang::Fr);
        assert!(en.starts_with("line 1, column "), "{en}");
        assert!(en.contains("cannot be played"), "{en}");
        assert!(fr.starts_with("ligne 1, colonne "), "{fr}");
        assert!(fr.contains("ne peut pas être joué"), "{fr}");
        let err = Record::parse("").unwrap_err();
        assert!(ogn_error(&err, Lang::Fr).ends_with("aucune partie trouvée"));
    }

    #[test]
    fn positions_and_move_lists_in_french() {
        let fr =
            |t: &str| position_error(&t.parse::<oware_core::Position>().unwrap_err(), Lang::Fr);
        assert!(fr("4-4").contains("15 champs"), "{}", fr("4-4"));
        let e = fr("4-4-4-4-4-4-4-4-4-4-4-x-0-0-S");
        assert!(e.starts_with("la case f (champ 12), colonne 23"), "{e}");
        assert!(fr("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X").contains("S ou N"));
        assert!(fr("4-4-4-4-4-4-4-4-4-4-4-4-0-1-S").contains("49 graines"));
        let e = oware_core::parse_moves("Fz").unwrap_err();
        assert_eq!(
            moves_error(&e, Lang::Fr),
            "une lettre de coup de A à F ou de a à f est attendue colonne 2, pas «\u{a0}z\u{a0}»"
        );
        assert_eq!(moves_error(&e, Lang::En), e.to_string());
    }
}
