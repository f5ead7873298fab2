//! The libraries' typed errors in the user's language: an engine's fault
//! in a match (`oware_tools::arena::Fault`), a line of an openings file,
//! and the endgame tables' errors (`oware_tablebase::TbError`,
//! `oware_engine::tablebase::TablebaseError`). English keeps the
//! libraries' own words; French is written here, at the binary's edge.

use oware_session::problems::io_reason;
use oware_session::Lang;
use oware_tools::arena::{Ending, Fault, GameRecord, OpeningError};

/// What an engine did wrong, as a phrase: "it did not answer in time: no
/// move after 1500 ms".
pub fn fault(f: &Fault, lang: Lang) -> String {
    match (f, lang) {
        // The system's reason in words, never its raw "(os error 2)".
        (Fault::Spawn { command, source }, Lang::En) => {
            return format!("cannot start '{command}': {}", io_reason(source, lang))
        }
        (Fault::Write(_), Lang::En) => {
            return "crash: the engine no longer reads what it is sent (it has stopped)".to_string()
        }
        (_, Lang::En) => return f.to_string(),
        (_, Lang::Fr) => {}
    }
    match f {
        Fault::EmptyCommand => "la commande du moteur est vide".to_string(),
        Fault::Spawn { command, source } => format!(
            "impossible de lancer «\u{a0}{command}\u{a0}»\u{a0}: {}",
            io_reason(source, lang)
        ),
        Fault::NoPipe(_) => "impossible de communiquer avec le programme".to_string(),
        Fault::Write(_) => {
            "le moteur ne lit plus ce qu'on lui écrit (il s'est arrêté)".to_string()
        }
        Fault::Timeout {
            waiting_for: "bestmove",
            waited_ms,
        } => format!("il n'a pas joué à temps (aucun coup au bout de {waited_ms} ms)"),
        Fault::Timeout {
            waiting_for: "uciok",
            waited_ms,
        } => format!(
            "il n'a pas répondu à «\u{a0}uci\u{a0}» au bout de {waited_ms} ms\u{a0}: ce programme ne parle peut-être pas UCI"
        ),
        Fault::Timeout { waited_ms, .. } => {
            format!("il n'a pas répondu à temps (au bout de {waited_ms} ms)")
        }
        Fault::Exited { code: Some(code) } => {
            format!("le programme s'est arrêté (code de sortie {code})")
        }
        Fault::Exited { code: None } => "le programme a été arrêté par un signal".to_string(),
        Fault::Closed => "le moteur a fermé sa sortie".to_string(),
        Fault::Unreadable(word) if word.is_empty() => {
            "il a répondu «\u{a0}bestmove\u{a0}» sans coup".to_string()
        }
        Fault::Unreadable(word) => format!(
            "il a répondu «\u{a0}{word}\u{a0}», qui n'est pas une lettre de case (A à F ou a à f)"
        ),
        Fault::NoSuchOption { name, offered } => format!(
            "il n'a pas d'option «\u{a0}{name}\u{a0}» (ses options\u{a0}: {offered})"
        ),
        Fault::Illegal { mv, error } => match error {
            oware_core::GameError::Illegal { reason, .. } => format!(
                "il a joué {mv}, un coup impossible\u{a0}: {}",
                oware_session::Refusal::Illegal(*reason).reason(lang)
            ),
            _ => format!("il a joué {mv} alors que la partie était finie"),
        },
    }
}

/// How a game of a match ended, for the line that reports it: the end by
/// the rules as a phrase ("each player captured 24 seeds"), or the fault
/// and who made it ("engine 2 (…) at ply 7: …"). `labels` name the two
/// engines.
pub fn ending(g: &GameRecord, labels: [&str; 2], lang: Lang) -> String {
    match &g.ending {
        Ending::Rules(_) => oware_session::words::end_reason(&g.game, None, lang),
        Ending::Fault {
            engine,
            ply,
            fault: f,
        } => match lang {
            Lang::En => format!(
                "engine {} ({}) at ply {ply}: {}",
                engine + 1,
                labels[*engine],
                fault(f, lang)
            ),
            Lang::Fr => format!(
                "faute du moteur {} ({}) au demi-coup {ply}\u{a0}: {}",
                engine + 1,
                labels[*engine],
                fault(f, lang)
            ),
        },
    }
}

/// Why a line of an openings file is not an opening.
pub fn opening(e: &OpeningError, lang: Lang) -> String {
    use oware_session::problems::{moves_error, position_error};
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        OpeningError::Position { text, error } => format!(
            "position «\u{a0}{text}\u{a0}» illisible\u{a0}: {}",
            position_error(error, lang)
        ),
        OpeningError::Moves { text, error } => format!(
            "coups «\u{a0}{text}\u{a0}» illisibles\u{a0}: {}",
            moves_error(error, lang)
        ),
        OpeningError::Illegal { text, index, error } => {
            let n = index + 1;
            match error {
                oware_core::GameError::Illegal { mv, reason } => format!(
                    "coup {n} de «\u{a0}{text}\u{a0}»\u{a0}: {}",
                    oware_session::Refusal::Illegal(*reason)
                        .text(*mv, lang)
                        .trim_end_matches('.')
                ),
                _ => format!("coup {n} de «\u{a0}{text}\u{a0}»\u{a0}: la partie est déjà finie"),
            }
        }
        OpeningError::Over(text) => {
            format!("la partie est déjà finie après «\u{a0}{text}\u{a0}»")
        }
    }
}

/// What is wrong with endgame table files, and what to do.
pub fn tb_error(e: &oware_tablebase::TbError, lang: Lang) -> String {
    use oware_tablebase::TbError;
    match (e, lang) {
        (TbError::Io { path, source }, _) => {
            let sep = lang.pick(": ", "\u{a0}: ");
            format!("{}{sep}{}", path.display(), io_reason(source, lang))
        }
        (TbError::Corrupt { path, reason }, Lang::En) => format!(
            "{}: {reason}; rebuild the tables with `oware tablebase build`",
            path.display()
        ),
        (TbError::Corrupt { path, reason }, Lang::Fr) => format!(
            "{} n'est pas une table de finales que ce programme peut lire\u{a0}: {}. Reconstruisez les tables avec «\u{a0}oware tablebase build\u{a0}».",
            path.display(),
            damage_fr(reason)
        ),
        (TbError::TooManySeeds { seeds }, Lang::Fr) => format!(
            "impossible de construire les tables de {seeds} graines\u{a0}: au plus {}",
            oware_tablebase::MAX_BUILD_SEEDS
        ),
        (TbError::PaletteOverflow { seeds }, Lang::Fr) => format!(
            "{seeds} graines\u{a0}: plus de 256 paires de valeurs différentes, un octet par position ne suffit pas"
        ),
        (TbError::Remote { rank, seeds }, Lang::Fr) => format!(
            "le processus {rank} a échoué pendant la construction des tables de {seeds} graines"
        ),
        (other, _) => other.to_string(),
    }
}

/// What is wrong with a table file ([`oware_tablebase::Damage`]), in
/// French: the kind of damage, with the numbers that show it.
fn damage_fr(d: &oware_tablebase::Damage) -> String {
    use oware_tablebase::{file, Damage};
    match d {
        Damage::TooShort { len } => format!(
            "le fichier est trop court ({len}\u{a0}octets, moins que les {}\u{a0}octets d'un en-tête)",
            file::HEADER_LEN
        ),
        Damage::NotATable => "ce n'est pas un fichier de tables".to_string(),
        Damage::Version { found } => format!(
            "il est d'une autre version du format (version {found}, ce programme lit la version {})",
            file::VERSION
        ),
        Damage::CycleLimit { found } => format!(
            "il a été construit avec d'autres réglages (cycles comptés jusqu'à {found}\u{a0}graines, ce programme les compte jusqu'à {})",
            oware_tablebase::REFINE_MAX_SEEDS
        ),
        Damage::OtherSeeds { found, expected } => format!(
            "il contient la table de {found}\u{a0}graines au lieu de celle de {expected}"
        ),
        Damage::EntryCount {
            found,
            seeds,
            expected,
        } => format!(
            "son en-tête annonce {found}\u{a0}positions, mais {seeds}\u{a0}graines en font {expected}"
        ),
        Damage::Size { len, expected } => format!(
            "sa taille est fausse, il est tronqué ou rallongé ({len}\u{a0}octets au lieu de {expected})"
        ),
        Damage::PaletteLength { len } => format!(
            "son en-tête est abîmé (il annonce {len}\u{a0}paires de valeurs au lieu de 1 à 256)"
        ),
        Damage::Checksum { .. } => {
            "sa somme de contrôle est fausse, il a été abîmé".to_string()
        }
        Damage::PaletteEntry { slot, seeds, .. } => format!(
            "son contenu est incohérent, il est abîmé (sa paire de valeurs numéro {slot} ne tient pas entre 0 et {seeds})"
        ),
        Damage::UnknownSlot { slot, palette } => format!(
            "son contenu est incohérent, il est abîmé (une position renvoie à la paire de valeurs {slot}, il n'y en a que {palette})"
        ),
        Damage::TooManySeeds { seeds } => format!(
            "une table de {seeds}\u{a0}graines, alors que le jeu n'en a que {}",
            oware_tablebase::index::MAX_SEEDS
        ),
    }
}

/// Why the engine could not open or build its tables.
pub fn tablebase_error(e: &oware_engine::tablebase::TablebaseError, lang: Lang) -> String {
    use oware_engine::tablebase::TablebaseError;
    match (e, lang) {
        (_, Lang::En) => e.to_string(),
        (TablebaseError::Open { dir, source }, Lang::Fr) => format!(
            "impossible d'ouvrir les tables de finales de {}\u{a0}: {}",
            dir.display(),
            tb_error(source, lang)
        ),
        (TablebaseError::Empty { dir }, Lang::Fr) => format!(
            "il n'y a pas de fichiers de tables de finales (oware-tb-NN.otb) dans {}\u{a0}: donnez le dossier qui les contient",
            dir.display()
        ),
        (TablebaseError::Build(source), Lang::Fr) => tb_error(source, lang),
        (TablebaseError::Disabled, Lang::Fr) => {
            "ce programme a été compilé sans les tables de finales".to_string()
        }
    }
}

/// What is wrong with an opening book file, in French.
pub fn book_error_fr(e: &oware_engine::book::BookError) -> String {
    use oware_engine::book::{BookError, VERSION};
    match e {
        BookError::Io(_) => "il n'a pas pu être lu".to_string(),
        BookError::NotABook => "ce n'est pas un fichier de livre d'ouvertures".to_string(),
        BookError::Version { found } => format!(
            "il est d'une autre version du format (version {found}, ce programme lit la version {VERSION})\u{a0}; reconstruisez-le avec «\u{a0}oware book build\u{a0}»"
        ),
        BookError::Length { expected, found } => format!(
            "sa taille est fausse, il est tronqué ou abîmé ({found}\u{a0}octets au lieu de {expected})"
        ),
        BookError::Checksum { .. } => {
            "sa somme de contrôle est fausse, il a été abîmé".to_string()
        }
        BookError::Corrupt(_) => "son contenu est incohérent, il est abîmé".to_string(),
    }
}
