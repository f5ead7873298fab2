//! The mail edge: `--smtp` and `--mail-from` parsed once into typed
//! values, addresses checked, the mails' words in English and French, and
//! the SMTP client (the `lettre` crate) that sends one. What is sent, when
//! and to whom is `hub/mail.rs`; this module only speaks SMTP.

use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
pub use oware_session::Lang;

/// The longest address taken (RFC 5321's path limit).
pub const MAX_ADDRESS: usize = 254;

/// A mail setting that cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MailError {
    /// `--smtp` is not `smtp://host[:port]`.
    #[error("--smtp {0:?}: expected smtp://host[:port] (a relay reached without TLS, such as a local MTA); smtps:// and STARTTLS are not built in")]
    Url(String),
    /// An address that is not one.
    #[error("{0:?} is not an e-mail address")]
    Address(String),
    /// The mail could not be built.
    #[error("the mail could not be built: {0}")]
    Build(String),
    /// The SMTP server refused or could not be reached.
    #[error("SMTP: {0}")]
    Smtp(String),
}

/// Where mail goes: an SMTP relay and the sender's address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailConfig {
    /// The relay's host.
    pub host: String,
    /// Its port (25 when not given).
    pub port: u16,
    /// The `From` address.
    pub from: Email,
    /// The site's address as its players reach it (`https://oware.example`),
    /// for the links in mails; never taken from a request's `Host`.
    pub public_url: String,
}

impl MailConfig {
    /// Parses `--smtp smtp://host[:port]`, `--mail-from` and the site's
    /// public address.
    pub fn parse(smtp: &str, from: &str, public_url: &str) -> Result<MailConfig, MailError> {
        let bad = || MailError::Url(smtp.to_string());
        let rest = smtp.strip_prefix("smtp://").ok_or_else(bad)?;
        let rest = rest.trim_end_matches('/');
        if rest.is_empty() || rest.contains(['/', '@', '?', '#']) {
            return Err(bad());
        }
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), p.parse::<u16>().map_err(|_| bad())?),
            _ => (rest.to_string(), 25),
        };
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        if host.is_empty() || port == 0 {
            return Err(bad());
        }
        Ok(MailConfig {
            host,
            port,
            from: Email::parse(from)
                .map_err(|_| MailError::Address(format!("--mail-from {}", from.trim())))?,
            public_url: public_url.trim_end_matches('/').to_string(),
        })
    }
}

/// A checked e-mail address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// Checks an address: at most [`MAX_ADDRESS`] characters, no space or
    /// control character, one `@` with a name before it and a domain
    /// after it that SMTP can carry.
    pub fn parse(text: &str) -> Result<Email, MailError> {
        let text = text.trim();
        let bad = || MailError::Address(text.chars().take(80).collect());
        if text.is_empty()
            || text.len() > MAX_ADDRESS
            || text.chars().any(|c| c.is_whitespace() || c.is_control())
            || text.contains(['<', '>', '"', ',', ';', '\\', '(', ')'])
        {
            return Err(bad());
        }
        let (local, domain) = text.rsplit_once('@').ok_or_else(bad)?;
        if local.is_empty() || local.contains('@') || !domain.contains('.') {
            return Err(bad());
        }
        text.parse::<lettre::Address>().map_err(|_| bad())?;
        Ok(Email(text.to_string()))
    }

    /// The address.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The address in lower case: what two addresses are compared by.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

/// What a mail says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Letter {
    /// Verify this address: the link.
    Verify {
        /// The link.
        link: String,
        /// The account's name.
        username: String,
    },
    /// Set a new password: the link.
    Reset {
        /// The link.
        link: String,
        /// The account's name.
        username: String,
    },
    /// A correspondence game waits for your move.
    YourTurn {
        /// The game's page.
        link: String,
        /// The opponent's name.
        opponent: String,
    },
    /// A tournament you entered is starting.
    TournamentStarting {
        /// The tournament's page.
        link: String,
        /// Its name.
        name: String,
    },
}

/// A mail ready to send: subject and plain text, in one language, with
/// its unsubscribe link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composed {
    /// The subject.
    pub subject: String,
    /// The plain text.
    pub text: String,
    /// The unsubscribe link, `…/unsubscribe#TOKEN` (the token in the
    /// fragment: never sent to the server by the browser, so never logged).
    pub unsubscribe: String,
}

impl Composed {
    /// The `List-Unsubscribe` header's link: the same page with the token
    /// in the query, `…/unsubscribe?token=TOKEN`, where a mail program
    /// posts `List-Unsubscribe=One-Click` (RFC 8058) and a person who
    /// opens it gets the page.
    pub fn list_unsubscribe(&self) -> String {
        match self.unsubscribe.split_once('#') {
            Some((page, token)) => format!("{page}?token={token}"),
            None => self.unsubscribe.clone(),
        }
    }
}

/// How long the links last, in words (`hub/mail.rs` holds the durations).
fn hours(lang: Lang, h: u32) -> String {
    match (lang, h) {
        (Lang::En, 1) => "1 hour".into(),
        (Lang::En, h) => format!("{h} hours"),
        (Lang::Fr, 1) => "1\u{a0}heure".into(),
        (Lang::Fr, h) => format!("{h}\u{a0}heures"),
    }
}

/// The words of a mail. `valid_hours` is how long a verification or reset
/// link lasts.
pub fn compose(letter: &Letter, lang: Lang, unsubscribe: &str, valid_hours: u32) -> Composed {
    let valid = hours(lang, valid_hours);
    let (subject, body) = match (letter, lang) {
        (Letter::Verify { link, username }, Lang::En) => (
            "Oware: confirm your e-mail address".to_string(),
            format!(
                "Hello {username},\n\nTo confirm that this address is yours, open this link \
                 (it works once, for {valid}):\n\n{link}\n\nIf you did not add this address to \
                 an Oware account, ignore this mail."
            ),
        ),
        (Letter::Verify { link, username }, Lang::Fr) => (
            "Oware\u{a0}: confirmez votre adresse e-mail".to_string(),
            format!(
                "Bonjour {username},\n\nPour confirmer que cette adresse est la vôtre, ouvrez ce \
                 lien (valable une fois, pendant {valid})\u{a0}:\n\n{link}\n\nSi vous n’avez pas \
                 ajouté cette adresse à un compte Oware, ignorez ce message."
            ),
        ),
        (Letter::Reset { link, username }, Lang::En) => (
            "Oware: set a new password".to_string(),
            format!(
                "Hello {username},\n\nSomeone (you, we hope) asked to set a new password for \
                 this account. Open this link to choose one (it works once, for {valid}):\n\n\
                 {link}\n\nIf you did not ask, ignore this mail: your password stays as it is."
            ),
        ),
        (Letter::Reset { link, username }, Lang::Fr) => (
            "Oware\u{a0}: choisir un nouveau mot de passe".to_string(),
            format!(
                "Bonjour {username},\n\nQuelqu’un (vous, espérons-le) a demandé un nouveau mot \
                 de passe pour ce compte. Ouvrez ce lien pour en choisir un (valable une fois, \
                 pendant {valid})\u{a0}:\n\n{link}\n\nSi vous n’avez rien demandé, ignorez ce \
                 message\u{a0}: votre mot de passe reste le même."
            ),
        ),
        (Letter::YourTurn { link, opponent }, Lang::En) => (
            format!("Oware: your move against {opponent}"),
            format!(
                "{opponent} has played: it is your move in your correspondence game.\n\n{link}\n\n\
                 (At most one such mail a game a day.)"
            ),
        ),
        (Letter::YourTurn { link, opponent }, Lang::Fr) => (
            format!("Oware\u{a0}: à vous de jouer contre {opponent}"),
            format!(
                "{opponent} a joué\u{a0}: c’est à vous dans votre partie par correspondance.\n\n\
                 {link}\n\n(Au plus un tel message par partie et par jour.)"
            ),
        ),
        (Letter::TournamentStarting { link, name }, Lang::En) => (
            format!("Oware: {name} is starting"),
            format!("The tournament {name}, which you entered, is starting.\n\n{link}"),
        ),
        (Letter::TournamentStarting { link, name }, Lang::Fr) => (
            format!("Oware\u{a0}: {name} commence"),
            format!("Le tournoi {name}, auquel vous êtes inscrit, commence.\n\n{link}"),
        ),
    };
    let footer = match lang {
        Lang::En => format!(
            "\n\n--\nTo receive no more mails about your games and tournaments, open:\n{unsubscribe}\n"
        ),
        Lang::Fr => format!(
            "\n\n--\nPour ne plus recevoir de messages sur vos parties et tournois, ouvrez\u{a0}:\n\
             {unsubscribe}\n"
        ),
    };
    Composed {
        subject,
        text: body + &footer,
        unsubscribe: unsubscribe.to_string(),
    }
}

/// The SMTP client.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mailer(from {})", self.from)
    }
}

/// How long one SMTP exchange may take before it counts as failed (the
/// machine's time: it bounds a network wait, not the game's time).
const SMTP_TIMEOUT: Duration = Duration::from_secs(10);

impl Mailer {
    /// A client of the relay in `config`.
    pub fn new(config: &MailConfig) -> Result<Mailer, MailError> {
        let from = config
            .from
            .as_str()
            .parse::<Mailbox>()
            .map_err(|e| MailError::Address(e.to_string()))?;
        let transport =
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(config.host.as_str())
                .port(config.port)
                .timeout(Some(SMTP_TIMEOUT))
                .build();
        Ok(Mailer { transport, from })
    }

    /// Sends one mail, dated `date`.
    pub async fn send(
        &self,
        to: &str,
        mail: &Composed,
        date: std::time::SystemTime,
    ) -> Result<(), MailError> {
        let to = to
            .parse::<Mailbox>()
            .map_err(|_| MailError::Address(to.chars().take(80).collect()))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.as_str())
            .date(date)
            .header(ContentType::TEXT_PLAIN)
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{}>", mail.list_unsubscribe()),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".to_string(),
            ))
            .body(mail.text.clone())
            .map_err(|e| MailError::Build(e.to_string()))?;
        self.transport
            .send(message)
            .await
            .map(drop)
            .map_err(|e| MailError::Smtp(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_and_addresses_are_parsed_once() {
        let c = MailConfig::parse("smtp://127.0.0.1:2525", "Oware <x@y.z>", "http://a/").err();
        assert!(matches!(c, Some(MailError::Address(_))), "{c:?}");
        let c = MailConfig::parse(
            "smtp://mail.example:2525",
            "site@oware.example",
            "http://a/",
        )
        .unwrap();
        assert_eq!((c.host.as_str(), c.port), ("mail.example", 2525));
        assert_eq!(c.public_url, "http://a");
        assert_eq!(
            MailConfig::parse("smtp://localhost", "a@b.c", "x")
                .unwrap()
                .port,
            25
        );
        for bad in [
            "smtps://h:465",
            "http://h",
            "smtp://",
            "smtp://h:x",
            "smtp://u:p@h:25",
        ] {
            assert!(MailConfig::parse(bad, "a@b.c", "x").is_err(), "{bad}");
        }
        for ok in ["ama@example.com", "Kofi.Mensah+oware@mail.example.gh"] {
            assert_eq!(Email::parse(ok).unwrap().as_str(), ok);
        }
        assert_eq!(Email::parse(" A@B.cd ").unwrap().key(), "a@b.cd");
        let long = format!("{}@example.com", "a".repeat(250));
        for bad in [
            "",
            "no-at-sign",
            "a@b",
            "@b.c",
            "a b@c.d",
            "a@b.c\r\nBcc: x@y.z",
            "<a@b.c>",
            long.as_str(),
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn every_mail_has_both_languages_and_an_unsubscribe_link() {
        let letters = [
            Letter::Verify {
                link: "L".into(),
                username: "Ama".into(),
            },
            Letter::Reset {
                link: "L".into(),
                username: "Ama".into(),
            },
            Letter::YourTurn {
                link: "L".into(),
                opponent: "Kofi".into(),
            },
            Letter::TournamentStarting {
                link: "L".into(),
                name: "Friday arena".into(),
            },
        ];
        for l in &letters {
            let en = compose(l, Lang::En, "U", 24);
            let fr = compose(l, Lang::Fr, "U", 24);
            assert_ne!(en.subject, fr.subject);
            for m in [&en, &fr] {
                assert!(m.text.contains("\nL\n"), "{}", m.text);
                assert!(m.text.ends_with("\nU\n"), "{}", m.text);
                // French punctuation: a no-break space before : ; ! ?
                assert!(!m.text.contains(" :") && !m.subject.contains(" :"));
            }
        }
    }
}
