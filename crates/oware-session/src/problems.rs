//! What went wrong, in words for people: a file the system could not read
//! or write, a game record that does not read. The system's own messages
//! ("No such file or directory (os error 2)") are never shown as they are.

use std::io;

use oware_core::{GameError, OgnError, OgnErrorKind};

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
}
