//! The languages messages are written in.

/// A language for people: every message of this crate has an English and a
/// French text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French.
    Fr,
}

impl Lang {
    /// Both languages.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// Parses `en` or `fr` (any case; `en_GB.UTF-8` style locales too).
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.trim().to_ascii_lowercase();
        if s.starts_with("fr") {
            Some(Lang::Fr)
        } else if s.starts_with("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The two-letter code, `en` or `fr`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language named by the locale variables (`LC_ALL`, then
    /// `LC_MESSAGES`, then `LANG`), English when none names a language we have.
    pub fn from_env() -> Lang {
        Lang::from_locale_vars(|name| std::env::var(name).ok())
    }

    /// [`from_env`](Self::from_env) with the variables given by `get`.
    pub fn from_locale_vars(get: impl Fn(&str) -> Option<String>) -> Lang {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Some(v) = get(name) {
                if v.is_empty() {
                    continue;
                }
                return Lang::parse(&v).unwrap_or(Lang::En);
            }
        }
        Lang::En
    }

    /// The other language.
    pub fn toggled(self) -> Lang {
        match self {
            Lang::En => Lang::Fr,
            Lang::Fr => Lang::En,
        }
    }

    /// `en` or `fr`, whichever is this language.
    pub fn pick<'a>(self, en: &'a str, fr: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Fr => fr,
        }
    }
}

/// French typography: a no-break space before `;`, `:`, `?` and `!`.
pub const NBSP: char = '\u{a0}';

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_picks_french_and_falls_back_to_english() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            Lang::from_locale_vars(env(&[("LANG", "fr_FR.UTF-8")])),
            Lang::Fr
        );
        assert_eq!(
            Lang::from_locale_vars(env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "fr_FR")])),
            Lang::En
        );
        assert_eq!(
            Lang::from_locale_vars(env(&[("LC_ALL", ""), ("LANG", "fr_CA")])),
            Lang::Fr
        );
        assert_eq!(
            Lang::from_locale_vars(env(&[("LANG", "de_DE.UTF-8")])),
            Lang::En
        );
        assert_eq!(Lang::from_locale_vars(env(&[])), Lang::En);
        assert_eq!(Lang::parse("FR"), Some(Lang::Fr));
        assert_eq!(Lang::parse("xx"), None);
    }
}
