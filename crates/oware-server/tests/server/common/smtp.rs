//! A real SMTP server for the mail tests: Python's `aiosmtpd` in a child
//! process on a loopback port, which prints each mail it takes as a line
//! of JSON (recipients, subject, plain text, date, `List-Unsubscribe` and
//! `List-Unsubscribe-Post`).
//!
//! `scripts/install-test-deps` installs aiosmtpd into
//! `/opt/oware-test-smtp` (its Python is used when present; else
//! `OWARE_TEST_SMTP_PYTHON`, else `python3`). Without it the tests that
//! need it are skipped with a message, unless `OWARE_TEST_SMTP=required`
//! (set by `scripts/test-all`, so CI), when they fail.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;

const SINK: &str = r#"
import email, email.policy, email.utils, json, sys
from aiosmtpd.controller import Controller

class Sink:
    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = msg.get_body(preferencelist=("plain",))
        print(json.dumps({
            "to": envelope.rcpt_tos,
            "from": envelope.mail_from,
            "subject": str(msg["subject"]),
            "text": body.get_content() if body is not None else "",
            "date_ms": int(email.utils.parsedate_to_datetime(msg["date"]).timestamp() * 1000),
            "unsubscribe": str(msg["list-unsubscribe"] or ""),
            "unsubscribe_post": str(msg["list-unsubscribe-post"] or ""),
        }), flush=True)
        return "250 OK"

c = Controller(Sink(), hostname="127.0.0.1", port=int(sys.argv[1]))
c.start()
print(json.dumps({"ready": True}), flush=True)
sys.stdin.read()
c.stop()
"#;

/// The Python that has aiosmtpd, if any.
fn python() -> Option<String> {
    let mut candidates = Vec::new();
    if let Ok(p) = std::env::var("OWARE_TEST_SMTP_PYTHON") {
        candidates.push(p);
    }
    candidates.push("/opt/oware-test-smtp/bin/python".into());
    candidates.push("python3".into());
    candidates.into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import aiosmtpd"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// A running SMTP server and the mails it took, in order.
pub struct Smtp {
    python: String,
    pub port: u16,
    child: Option<Child>,
    mails: mpsc::UnboundedReceiver<Value>,
    /// Mails taken so far (named when one does not come).
    taken: usize,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Smtp {
    /// Starts one on a free port, or `None` (with a message) when aiosmtpd
    /// is not installed and not required.
    pub async fn start() -> Option<Smtp> {
        let Some(python) = python() else {
            if std::env::var("OWARE_TEST_SMTP").as_deref() == Ok("required") {
                panic!("aiosmtpd is required (OWARE_TEST_SMTP=required) but no Python has it; run scripts/install-test-deps");
            }
            eprintln!("SKIPPED: aiosmtpd is not installed (scripts/install-test-deps installs it)");
            return None;
        };
        let (_, mails) = mpsc::unbounded_channel();
        let mut smtp = Smtp {
            python,
            port: free_port(),
            child: None,
            mails,
            taken: 0,
        };
        smtp.up().await;
        Some(smtp)
    }

    /// The relay's URL for `--smtp`.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Starts the server again on the same port.
    pub async fn up(&mut self) {
        assert!(self.child.is_none(), "already up");
        let mut child = Command::new(&self.python)
            .args(["-c", SINK, &self.port.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, mut rx) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(v) = serde_json::from_str::<Value>(&line) {
                    if tx.send(v).is_err() {
                        break;
                    }
                }
            }
        });
        let ready = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("the SMTP server starts within 20 s")
            .expect("the SMTP server says it is ready");
        assert_eq!(ready["ready"], true, "{ready}");
        self.mails = rx;
        self.child = Some(child);
    }

    /// Stops the server: connections to its port are refused.
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The next mail taken, within `secs` seconds.
    pub async fn mail(&mut self, secs: u64) -> Value {
        let n = self.taken + 1;
        let m = tokio::time::timeout(Duration::from_secs(secs), self.mails.recv())
            .await
            .unwrap_or_else(|_| panic!("mail {n}: none within {secs} s"))
            .expect("the SMTP server is up");
        self.taken = n;
        m
    }

    /// The next mail taken within `secs` seconds, if one is.
    pub async fn mail_within(&mut self, secs: u64) -> Option<Value> {
        let m = tokio::time::timeout(Duration::from_secs(secs), self.mails.recv())
            .await
            .ok()
            .flatten();
        self.taken += usize::from(m.is_some());
        m
    }

    /// A mail already taken, if any (nothing waited for).
    pub fn try_mail(&mut self) -> Option<Value> {
        self.mails.try_recv().ok()
    }
}

impl Drop for Smtp {
    fn drop(&mut self) {
        self.down();
    }
}

/// The token of the link `/{page}#TOKEN` in a mail's text.
pub fn link_token(mail: &Value, page: &str) -> String {
    let text = mail["text"].as_str().unwrap();
    let at = text
        .find(&format!("/{page}#"))
        .unwrap_or_else(|| panic!("no /{page}# link in {text}"));
    text[at + page.len() + 2..][..64].to_string()
}
