//! Game files: saving and loading OGN records, and the autosave of an
//! unfinished game.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use oware_core::{Game, OgnError, Record, Side};
use oware_engine::Level;
use oware_session::Lang;

/// Why a game file could not be written or read. Shown as
/// [`text`](StoreError::text) (`Display` is the English text).
#[derive(Debug)]
pub enum StoreError {
    /// The file's directory could not be created.
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a valid OGN game.
    Ogn {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        source: OgnError,
    },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

// No `source`: the text already says why in words, and error reporters
// that walk the chain would print the system's raw message after it.
impl std::error::Error for StoreError {}

impl StoreError {
    /// The error as a sentence in `lang`: what failed, on which file, and
    /// why in words (never the system's raw message).
    pub fn text(&self, lang: Lang) -> String {
        use oware_session::problems::{io_reason, ogn_error};
        match (self, lang) {
            (StoreError::CreateDir { path, source }, Lang::En) => format!(
                "Could not create the folder {}: {}.",
                path.display(),
                io_reason(source, lang)
            ),
            (StoreError::CreateDir { path, source }, Lang::Fr) => format!(
                "Impossible de créer le dossier {}\u{a0}: {}.",
                path.display(),
                io_reason(source, lang)
            ),
            (StoreError::Write { path, source }, Lang::En) => format!(
                "Could not save the game to {}: {}.",
                path.display(),
                io_reason(source, lang)
            ),
            (StoreError::Write { path, source }, Lang::Fr) => format!(
                "Impossible d'enregistrer la partie dans {}\u{a0}: {}.",
                path.display(),
                io_reason(source, lang)
            ),
            (StoreError::Read { path, source }, Lang::En) => format!(
                "Could not read the game file {}: {}.",
                path.display(),
                io_reason(source, lang)
            ),
            (StoreError::Read { path, source }, Lang::Fr) => format!(
                "Impossible de lire la partie {}\u{a0}: {}.",
                path.display(),
                io_reason(source, lang)
            ),
            (StoreError::Ogn { path, source }, Lang::En) => format!(
                "{} is not a game record this program can read ({}).",
                path.display(),
                ogn_error(source, lang)
            ),
            (StoreError::Ogn { path, source }, Lang::Fr) => format!(
                "{} n'est pas une partie lisible par ce programme ({}).",
                path.display(),
                ogn_error(source, lang)
            ),
        }
    }
}

/// The environment variable that overrides the data directory (tests use it).
pub const DATA_DIR_ENV: &str = "OWARE_DATA_DIR";

/// The extra OGN tag recording which side the computer played and at which
/// level, e.g. `N 3`; absent in games between two people.
pub const COMPUTER_TAG: &str = "Computer";

/// The directory of the autosave: `$OWARE_DATA_DIR`, else the user's data
/// directory (e.g. `~/.local/share/oware`).
pub fn data_dir(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os(DATA_DIR_ENV).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    dirs::data_dir().map(|d| d.join("oware"))
}

/// The autosave file in `dir`.
pub fn autosave_path(dir: &Path) -> PathBuf {
    dir.join("autosave.ogn")
}

/// Who played the game: the computer's side and level, if any.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Players {
    /// The computer's side and level; `None` for two people.
    pub computer: Option<(Side, Level)>,
}

impl Players {
    /// The name written in a game file's `South` and `North` tags.
    fn name(self, side: Side) -> String {
        match self.computer {
            Some((s, level)) if s == side => format!("Computer (level {})", level.get()),
            Some(_) => "You".to_string(),
            None => match side {
                Side::South => "South player".to_string(),
                Side::North => "North player".to_string(),
            },
        }
    }

    /// The players of a record as people read them in `lang`: "You" or
    /// "Vous", "Computer (level 3, Learner)" or "L'ordinateur (niveau 3,
    /// Apprenti)", from its `Computer` tag; else the names in its `South`
    /// and `North` tags (people's names), else the sides.
    pub fn names(record: &Record, lang: Lang) -> [String; 2] {
        let players = Players::from_record(record);
        [Side::South, Side::North].map(|side| match players.and_then(|p| p.computer) {
            Some((c, level)) if c == side => format!(
                "{} ({})",
                oware_session::Player::Computer.name(lang),
                oware_session::levels::label(level, lang)
            ),
            Some(_) => oware_session::Player::You.name(lang).to_string(),
            None => record
                .tag(side_name_tag(side))
                .filter(|n| !n.trim().is_empty() && !is_generic_name(n))
                .unwrap_or_else(|| oware_session::player::side_name(side, lang).to_string()),
        })
    }

    /// Reads the players from a record's tags.
    pub fn from_record(record: &Record) -> Option<Players> {
        let v = record.tag(COMPUTER_TAG)?;
        let mut it = v.split_whitespace();
        let side = Side::from_letter(it.next()?.chars().next()?)?;
        let level: u8 = it.next()?.parse().ok()?;
        Some(Players {
            computer: Some((side, Level::new(level))),
        })
    }
}

fn side_name_tag(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// The names this program writes for two people ("South player"), shown
/// as the side's name in the reader's language instead.
fn is_generic_name(name: &str) -> bool {
    matches!(name.trim(), "South player" | "North player" | "?")
}

/// The OGN text of `game`.
pub fn record_text(game: &Game, players: Players) -> String {
    let date = today();
    let south = players.name(Side::South);
    let north = players.name(Side::North);
    let mut record = Record::from_game(
        game.clone(),
        &[
            ("Event", "oware play"),
            ("Date", &date),
            ("South", &south),
            ("North", &north),
        ],
    );
    if let Some((side, level)) = players.computer {
        record.set_tag(COMPUTER_TAG, &format!("{} {}", side.letter(), level.get()));
    }
    record.write()
}

/// Writes the game to `path` (creating its directory).
pub fn save(path: &Path, game: &Game, players: Players) -> Result<(), StoreError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|source| StoreError::CreateDir {
            path: dir.to_path_buf(),
            // A file where the folder should be: the system says "it
            // already exists", which reads as if nothing were wrong.
            source: if source.kind() == std::io::ErrorKind::AlreadyExists && dir.exists() {
                std::io::Error::from(std::io::ErrorKind::NotADirectory)
            } else {
                source
            },
        })?;
    }
    fs::write(path, record_text(game, players)).map_err(|source| StoreError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads one game from an OGN file.
pub fn load(path: &Path) -> Result<Record, StoreError> {
    let text = fs::read_to_string(path).map_err(|source| StoreError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Record::parse(&text).map_err(|source| StoreError::Ogn {
        path: path.to_path_buf(),
        source,
    })
}

/// Today's date as OGN writes it, `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let (y, m, d, _) = now_civil();
    format!("{y:04}.{m:02}.{d:02}")
}

/// A file name for a saved game, `oware-YYYYMMDD-HHMMSS.ogn` (UTC).
pub fn default_save_name() -> String {
    let (y, m, d, secs) = now_civil();
    format!(
        "oware-{y:04}{m:02}{d:02}-{:02}{:02}{:02}.ogn",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

fn now_civil() -> (i64, u32, u32, u64) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    (y, m, d, secs % 86_400)
}

/// Days since 1970-01-01 to a proleptic Gregorian date.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_core::{parse_moves, Position};

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
    }

    #[test]
    fn save_and_load_keep_the_game_and_the_players() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/game.ogn");
        let game = Game::from_moves(Position::start(), &parse_moves("FfBe").unwrap()).unwrap();
        let players = Players {
            computer: Some((Side::North, Level::new(4))),
        };
        save(&path, &game, players).unwrap();
        let record = load(&path).unwrap();
        assert_eq!(record.game(), &game);
        assert_eq!(Players::from_record(&record), Some(players));
        assert_eq!(record.tag("North").as_deref(), Some("Computer (level 4)"));
        assert_eq!(
            Players::names(&record, Lang::Fr),
            [
                "Vous".to_string(),
                "L'ordinateur (niveau 4, Amateur)".to_string()
            ]
        );
        let err = load(&dir.path().join("missing.ogn")).unwrap_err();
        assert!(
            err.to_string().starts_with("Could not read the game file "),
            "{err}"
        );
        assert!(err.to_string().ends_with(": it does not exist."), "{err}");
        let fr = err.text(Lang::Fr);
        assert!(fr.starts_with("Impossible de lire la partie "), "{fr}");
        assert!(!fr.contains("os error") && !fr.contains("No such"), "{fr}");
        fs::write(dir.path().join("bad.ogn"), "1. F F").unwrap();
        let err = load(&dir.path().join("bad.ogn")).unwrap_err();
        assert!(err.text(Lang::Fr).contains("ligne 1, colonne"), "{err}");
    }
}
