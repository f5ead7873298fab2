//! Subcommands, one module per area; each owns its `Command` enum, which
//! `main` flattens into the top-level command list.

pub mod admin;
pub mod book;
pub mod core;
pub mod engine;
pub mod learn;
pub mod play;
pub mod problems;
pub mod puzzle;
pub mod serve;
pub mod serve_bench;
pub mod tablebase;
#[cfg(feature = "mpi")]
pub mod tablebase_mpi;

/// `--level`: a number from 1 to 10 or a level's name (English or
/// French); refused in the command line's language.
pub fn parse_level(text: &str) -> Result<oware_engine::Level, String> {
    use oware_session::Lang;
    oware_engine::Level::parse(text).ok_or_else(|| match args_lang() {
        Lang::En => format!(
            "'{text}' is not a level: use {}",
            oware_session::levels::accepted()
        ),
        Lang::Fr => format!(
            "«\u{a0}{text}\u{a0}» n'est pas un niveau\u{a0}: donnez 1 à 10, ou un nom\u{a0}: {}",
            oware_engine::Level::all()
                .map(oware_engine::Level::name_fr)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// The language of the command line's own messages: its `--lang`, else
/// the locale's (LC_ALL, LC_MESSAGES, LANG).
pub fn args_lang() -> oware_session::Lang {
    use oware_session::Lang;
    let args: Vec<String> = std::env::args().collect();
    for (i, a) in args.iter().enumerate() {
        let given = match a.strip_prefix("--lang=") {
            Some(v) => Some(v),
            None if a == "--lang" => args.get(i + 1).map(String::as_str),
            None => None,
        };
        if let Some(lang) = given.and_then(Lang::parse) {
            return lang;
        }
    }
    Lang::from_env()
}

/// `--lang`'s value: en or fr, refused in the command line's language.
pub fn parse_lang(text: Option<&str>) -> anyhow::Result<oware_session::Lang> {
    use oware_session::Lang;
    match text {
        None => Ok(Lang::from_env()),
        Some(l) => Lang::parse(l).ok_or_else(|| {
            let lang = args_lang();
            let text = match lang {
                Lang::En => format!("--lang: expected en or fr, not '{l}'"),
                Lang::Fr => format!("--lang\u{a0}: en ou fr, pas «\u{a0}{l}\u{a0}»"),
            };
            Said::new(lang, text).into()
        }),
    }
}

/// An error worded in both languages, said in `lang`.
pub fn said(lang: oware_session::Lang, en: String, fr: String) -> anyhow::Error {
    Said::new(lang, lang.pick(&en, &fr).to_string()).into()
}

/// An error already worded for people, in their language: `main` prints it
/// as it is ("error: …" or "erreur : …") and exits with status 2.
#[derive(Debug)]
pub struct Said {
    /// The language of the text.
    pub lang: oware_session::Lang,
    /// The sentence.
    pub text: String,
}

impl Said {
    pub fn new(lang: oware_session::Lang, text: String) -> Said {
        Said { lang, text }
    }
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for Said {}
