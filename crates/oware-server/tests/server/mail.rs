//! E-mail (docs/PROTOCOL.md, "E-mail") against a real SMTP server
//! (aiosmtpd, `common/smtp.rs`): an address added and verified by its
//! link, a password reset by its link (expired, reused and wrong links
//! refused with stable codes; other sessions signed out), "your move" in
//! correspondence at most once a game a day on the server's clock,
//! unsubscribing without a session, mails in French, the SMTP server down
//! then back (the mail retried, moves unaffected, nothing lost across a
//! restart), and no mail at all without `--smtp`. Attacked as a stranger:
//! a reset for someone else's address, enumeration, huge bodies, floods
//! from several addresses. On a manual clock; every wait is for an event,
//! with a time-out.

use std::net::SocketAddr;
use std::time::Duration;

use oware_server::mailer::MailConfig;
use oware_server::time::Time;
use oware_server::{Config, RateLimits, Server, ServerOptions};
use serde_json::{json, Value};

use crate::common::smtp::{link_token, Smtp};
use crate::common::*;

const AMA: [u8; 4] = [127, 0, 0, 2];
const KOFI: [u8; 4] = [127, 0, 0, 3];
const STRANGER: [u8; 4] = [127, 0, 0, 9];
const PASSWORD: &str = "seeds-and-houses";

fn mail_config(smtp: &Smtp) -> MailConfig {
    MailConfig::parse(&smtp.url(), "site@oware.test", "http://oware.test").unwrap()
}

/// Where a test's server keeps its games.
enum Db<'a> {
    Sqlite(&'a std::path::Path),
    Postgres(String),
}

/// A server on SQLite in a new folder, on a manual clock, sending its mail
/// to `smtp`: the folder (kept while the test runs), the clock and the
/// server.
async fn on_sqlite_with_mail(smtp: &Smtp) -> (tempfile::TempDir, Time, Server) {
    let dir = tempfile::tempdir().unwrap();
    let time = Time::manual(Time::wall().unix_ms());
    let s = server(
        &Db::Sqlite(dir.path()),
        &time,
        Some(mail_config(smtp)),
        None,
    )
    .await;
    (dir, time, s)
}

async fn server(
    db: &Db<'_>,
    time: &Time,
    mail: Option<MailConfig>,
    limits: Option<RateLimits>,
) -> Server {
    let (db, postgres) = match db {
        Db::Sqlite(dir) => (Some(dir.join("games.sqlite3")), None),
        Db::Postgres(url) => (None, Some(url.clone())),
    };
    Server::start(ServerOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db,
        postgres,
        config: Config {
            engine_threads: 1,
            rate_limits: limits,
            time: time.clone(),
            mail,
            ..Config::default()
        },
        ..ServerOptions::default()
    })
    .await
    .expect("server starts")
}

fn reason(r: &Resp) -> String {
    r.json()["error"]["reason"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Adds and verifies `email` for `b`: the verification mail's token used.
async fn add_verified(
    smtp: &mut Smtp,
    (src, addr, b): ([u8; 4], SocketAddr, &Browser),
    email: &str,
    lang: &str,
) -> Value {
    add_verified_with(smtp, (src, addr, b), email, lang, PASSWORD).await
}

async fn add_verified_with(
    smtp: &mut Smtp,
    (src, addr, b): ([u8; 4], SocketAddr, &Browser),
    email: &str,
    lang: &str,
    password: &str,
) -> Value {
    let r = post_signed_in(
        src,
        addr,
        b,
        "/api/v1/account/email",
        json!({"email": email, "password": password, "lang": lang}),
    )
    .await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["verified"], false);
    let mail = smtp.mail(20).await;
    assert_eq!(mail["to"], json!([email]), "{mail}");
    let token = link_token(&mail, "verify-email");
    let v = post(addr, "/api/v1/email/verify", json!({ "token": token })).await;
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(v.json()["verified"], true);
    mail
}

/// The whole life of an address, on one store: added (French mails),
/// verified, a reset asked for and used, links refused when wrong, used or
/// expired, unsubscribed.
async fn address_and_reset(db: Db<'_>) {
    let Some(mut smtp) = Smtp::start().await else {
        return;
    };
    let time = Time::manual(Time::wall().unix_ms());
    let s = server(&db, &time, Some(mail_config(&smtp)), None).await;
    let addr = s.addr();
    let ama = sign_up_from(AMA, addr, "Ama", PASSWORD).await;
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/email", None).await;
    assert_eq!(
        r.json(),
        json!({"available": true, "verified": false, "subscribed": false})
    );

    // Refused: no password, a wrong one, not an address.
    let set = |body: Value| post_signed_in(AMA, addr, &ama, "/api/v1/account/email", body);
    let r = set(json!({"email": "ama@example.com"})).await;
    assert_eq!(
        (r.status, r.code()),
        (400, "invalid_request".into()),
        "{}",
        r.body
    );
    let r = set(json!({"email": "ama@example.com", "password": "not-the-password"})).await;
    assert_eq!(r.code(), "bad_credentials", "{}", r.body);
    for bad in ["ama", "ama@example.com\r\nBcc: x@y.z", "<ama@example.com>"] {
        let r = set(json!({"email": bad, "password": PASSWORD})).await;
        assert_eq!(
            (r.code(), reason(&r)),
            ("invalid_request".into(), "bad_email".into())
        );
    }

    // Added in French: the verification mail is French, with its link and
    // an unsubscribe link (also as List-Unsubscribe).
    let mail = add_verified(&mut smtp, (AMA, addr, &ama), "Ama.Mensah@Example.com", "fr").await;
    assert!(
        mail["subject"].as_str().unwrap().contains("confirmez"),
        "{mail}"
    );
    assert!(
        mail["text"].as_str().unwrap().contains("Bonjour Ama"),
        "{mail}"
    );
    let unsub = link_token(&mail, "unsubscribe");
    // The header's link has the token in its query, for RFC 8058's
    // one-click unsubscribe by the mail program.
    assert!(
        mail["unsubscribe"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/unsubscribe?token={unsub}>")),
        "{mail}"
    );
    assert_eq!(mail["unsubscribe_post"], "List-Unsubscribe=One-Click");
    // Its link works once.
    let token = link_token(&mail, "verify-email");
    let again = post(addr, "/api/v1/email/verify", json!({ "token": token })).await;
    assert_eq!(
        (again.code(), reason(&again)),
        ("bad_token".into(), "link_used".into())
    );
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/email", None).await;
    assert_eq!(
        r.json(),
        json!({"available": true, "email": "Ama.Mensah@Example.com", "verified": true,
               "subscribed": true, "lang": "fr"})
    );

    // A reset asked for by a stranger, in another case: the mail goes to
    // Ama (in her language), never to the stranger; an unknown address gets
    // the same answer and no mail.
    let ask = |email: &str| {
        let email = email.to_string();
        async move {
            post_as(
                STRANGER,
                addr,
                "/api/v1/account/password-reset",
                json!({ "email": email }),
            )
            .await
        }
    };
    let known = ask("ama.mensah@example.com").await;
    let unknown = ask("nobody@example.com").await;
    assert_eq!((known.status, &known.body), (202, &unknown.body));
    let reset = smtp.mail(20).await;
    assert_eq!(reset["to"], json!(["Ama.Mensah@Example.com"]));
    assert!(
        reset["subject"].as_str().unwrap().contains("mot de passe"),
        "{reset}"
    );
    let token = link_token(&reset, "reset-password");

    // Refused: a wrong token, garbage, a password too short (the link
    // stays good), a huge body.
    let confirm = |token: String, password: &str| {
        let password = password.to_string();
        async move {
            post_as(
                STRANGER,
                addr,
                "/api/v1/account/password-reset/confirm",
                json!({"token": token, "new_password": password}),
            )
            .await
        }
    };
    let r = confirm("ab".repeat(32), "a-new-password").await;
    assert_eq!(
        (r.status, r.code(), reason(&r)),
        (403, "bad_token".into(), "link_unknown".into())
    );
    let r = confirm("not a token".into(), "a-new-password").await;
    assert_eq!(reason(&r), "link_unknown", "{}", r.body);
    let r = confirm(token.clone(), "short").await;
    assert_eq!(reason(&r), "password_length", "{}", r.body);
    let huge = json!({"token": token, "new_password": "x".repeat(100_000)}).to_string();
    let r = raw(
        addr,
        "POST",
        "/api/v1/account/password-reset/confirm",
        "application/json",
        huge.as_bytes(),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.body);

    // Used: the new password works, the old one and Ama's session do not,
    // and the link does not work twice.
    let r = confirm(token.clone(), "a-new-password").await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account", None).await;
    assert_eq!(r.status, 401, "signed out: {}", r.body);
    let sign_in = |password: &str| {
        let password = password.to_string();
        async move {
            post_as(
                AMA,
                addr,
                "/api/v1/account/signin",
                json!({"username": "Ama", "password": password}),
            )
            .await
        }
    };
    assert_eq!(sign_in(PASSWORD).await.status, 401);
    assert_eq!(sign_in("a-new-password").await.status, 200);
    let r = confirm(token, "another-password").await;
    assert_eq!(reason(&r), "link_used", "{}", r.body);

    // A link past its hour is refused.
    assert_eq!(ask("Ama.Mensah@example.com").await.status, 202);
    let late = link_token(&smtp.mail(20).await, "reset-password");
    time.advance(Duration::from_secs(3601));
    let r = confirm(late.clone(), "a-third-password").await;
    assert_eq!(reason(&r), "link_expired", "{}", r.body);

    // Unsubscribed by the link, without a session, as often as clicked.
    for _ in 0..2 {
        let r = post(addr, "/api/v1/email/unsubscribe", json!({ "token": unsub })).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let signed_in = sign_in("a-new-password").await;
    let ama = Browser {
        cookie: session_cookie(&signed_in),
        csrf: signed_in.json()["csrf"].as_str().map(str::to_string),
    };
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/email", None).await;
    assert_eq!(r.json()["subscribed"], false, "{}", r.body);

    // Subscribed again, then unsubscribed by a mail program's one-click
    // POST to the header's link (RFC 8058): a form body, no session. A
    // person opening that link gets the page, which changes nothing by
    // itself; a wrong body or token is refused.
    let r = as_browser(
        AMA,
        addr,
        &ama,
        "POST",
        "/api/v1/account/email/subscription",
        Some(json!({"subscribed": true})),
    )
    .await;
    assert_eq!(r.json()["subscribed"], true, "{}", r.body);
    let one_click = format!("/unsubscribe?token={unsub}");
    let form = "application/x-www-form-urlencoded";
    let html = ["accept: text/html".to_string()];
    let page = request(addr, "GET", &one_click, "", &html, b"").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<html"), "the page: {}", page.body);
    for (path, body, code) in [
        (
            one_click.as_str(),
            &b"List-Unsubscribe=Maybe"[..],
            "invalid_request",
        ),
        (
            "/unsubscribe?token=0123",
            &b"List-Unsubscribe=One-Click"[..],
            "bad_token",
        ),
        (
            "/unsubscribe",
            &b"List-Unsubscribe=One-Click"[..],
            "invalid_request",
        ),
    ] {
        let r = request(addr, "POST", path, form, &[], body).await;
        assert_eq!(r.code(), code, "{path}: {}", r.body);
    }
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/email", None).await;
    assert_eq!(r.json()["subscribed"], true, "{}", r.body);
    let r = request(
        addr,
        "POST",
        &one_click,
        form,
        &[],
        b"List-Unsubscribe=One-Click",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/email", None).await;
    assert_eq!(r.json()["subscribed"], false, "{}", r.body);
    // Every mail was sent: nothing waits, nothing failed.
    let counts = settled(s.hub()).await;
    assert_eq!((counts.sent, counts.failed), (3, 0), "{counts:?}");
    // The links are stored as their SHA-256 only: neither the tokens'
    // table nor the outbox holds one that works.
    if let Db::Sqlite(dir) = db {
        let conn = rusqlite::Connection::open(dir.join("games.sqlite3")).unwrap();
        let mut text = String::new();
        let mut blobs = Vec::new();
        for table in ["mail_tokens", "mail_outbox", "mail_addresses"] {
            let mut stmt = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
            let n = stmt.column_count();
            let mut rows = stmt.query([]).unwrap();
            while let Some(r) = rows.next().unwrap() {
                for i in 0..n {
                    match r.get_ref(i).unwrap() {
                        rusqlite::types::ValueRef::Text(t) => {
                            text.push_str(&String::from_utf8_lossy(t));
                            text.push(' ');
                        }
                        rusqlite::types::ValueRef::Blob(b) => blobs.push(b.to_vec()),
                        _ => {}
                    }
                }
            }
        }
        use sha2::Digest;
        for t in [&unsub, &late] {
            assert!(
                !text.contains(t.as_str()),
                "a link's token is stored as sent"
            );
            let hash = sha2::Sha256::digest(t.as_bytes()).to_vec();
            assert!(blobs.contains(&hash), "a link's SHA-256 is stored");
        }
    }
}

/// The outbox's counts once nothing waits in it (a mail is marked sent
/// just after the SMTP server takes it).
async fn settled(
    hub: &std::sync::Arc<oware_server::Hub>,
) -> oware_server::store::mail::OutboxCounts {
    let wait = async {
        loop {
            let c = hub.mail().outbox().await.unwrap();
            if c.queued == 0 {
                return c;
            }
            tokio::task::yield_now().await;
        }
    };
    tokio::time::timeout(Duration::from_secs(20), wait)
        .await
        .expect("the outbox empties within 20 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_an_address_is_verified_and_resets_a_password_by_single_use_links() {
    let dir = tempfile::tempdir().unwrap();
    address_and_reset(Db::Sqlite(dir.path())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_links_work_the_same_on_postgresql() {
    let Some(cluster) = crate::common::pg::Cluster::start() else {
        return;
    };
    address_and_reset(Db::Postgres(cluster.database("mail"))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_your_move_once_a_game_a_day_retried_when_smtp_is_down_and_kept_across_a_restart() {
    let Some(mut smtp) = Smtp::start().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = Db::Sqlite(dir.path());
    let time = Time::manual(Time::wall().unix_ms());
    let start = time.unix_ms();
    let s = server(&db, &time, Some(mail_config(&smtp)), None).await;
    let addr = s.addr();
    let ama = sign_up_from(AMA, addr, "Ama", PASSWORD).await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", PASSWORD).await;
    add_verified(&mut smtp, (AMA, addr, &ama), "ama@example.com", "en").await;
    add_verified(&mut smtp, (KOFI, addr, &kofi), "kofi@example.com", "fr").await;

    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/games",
        json!({"mode": "online", "public": true, "side": "S",
               "time_control": {"days_per_move": 3}}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let south = r.json()["tokens"]["S"].as_str().unwrap().to_string();
    let j = post_signed_in(
        KOFI,
        addr,
        &kofi,
        &format!("/api/v1/games/{id}/join"),
        json!({}),
    )
    .await;
    assert_eq!(j.status, 200, "{}", j.body);
    let north = j.json()["token"].as_str().unwrap().to_string();

    // Day 0: each is told once (Kofi in French), then not again that day.
    play_first_legal_move(addr, &id, &south, 0).await;
    let m = smtp.mail(20).await;
    assert_eq!(m["to"], json!(["kofi@example.com"]));
    assert!(
        m["subject"]
            .as_str()
            .unwrap()
            .contains("à vous de jouer contre Ama"),
        "{m}"
    );
    assert!(
        m["text"].as_str().unwrap().contains(&format!("/game/{id}")),
        "{m}"
    );
    play_first_legal_move(addr, &id, &north, 1).await;
    let m = smtp.mail(20).await;
    assert_eq!(m["to"], json!(["ama@example.com"]));
    assert!(
        m["subject"]
            .as_str()
            .unwrap()
            .contains("your move against Kofi"),
        "{m}"
    );
    play_first_legal_move(addr, &id, &south, 2).await;
    play_first_legal_move(addr, &id, &north, 3).await;
    // A day later, Kofi is told again: the next mail is dated then (the two
    // moves of day 0 sent none).
    time.advance(Duration::from_secs(24 * 3600 + 60));
    play_first_legal_move(addr, &id, &south, 4).await;
    let m = smtp.mail(20).await;
    assert_eq!(m["to"], json!(["kofi@example.com"]));
    assert!(
        m["date_ms"].as_i64().unwrap() >= start + 24 * 3600 * 1000,
        "{m}"
    );
    assert!(smtp.try_mail().is_none());
    // The server has heard the SMTP server take it (the test may see the
    // mail before the server gets the answer; cut then, the server would
    // count the attempt failed and send it again).
    settled(s.hub()).await;

    // The SMTP server goes down: moves go on at once; the mail's attempt
    // fails and it waits in the outbox.
    smtp.down();
    time.advance(Duration::from_secs(24 * 3600 + 60));
    let before = std::time::Instant::now();
    play_first_legal_move(addr, &id, &north, 5).await;
    assert!(
        before.elapsed() < Duration::from_secs(5),
        "the move waited for SMTP"
    );
    let hub = s.hub().clone();
    let failed_once = async {
        loop {
            let c = hub.mail().outbox().await.unwrap();
            if c.retries >= 1 {
                return c;
            }
            tokio::task::yield_now().await;
        }
    };
    let c = tokio::time::timeout(Duration::from_secs(20), failed_once)
        .await
        .expect("the attempt fails within 20 s");
    assert_eq!(c.queued, 1, "{c:?}");

    // The server stops with the mail queued; a new one on the same
    // database, with the SMTP server back, sends it once due.
    s.abort();
    drop(hub);
    drop(s);
    smtp.up().await;
    let time = Time::manual(time.unix_ms());
    let s = server(&db, &time, Some(mail_config(&smtp)), None).await;
    // Due a minute after the failed attempt; should the new server's own
    // first attempt fail too (an SMTP server slow to take connections on a
    // loaded machine), the next is at most an hour later.
    time.advance(Duration::from_secs(61));
    let mut m = smtp.mail_within(10).await;
    for _ in 0..3 {
        if m.is_some() {
            break;
        }
        time.advance(Duration::from_secs(3600));
        m = smtp.mail_within(10).await;
    }
    let m = m.expect("the queued mail is sent once the SMTP server is back");
    assert_eq!(m["to"], json!(["ama@example.com"]));
    assert!(m["subject"].as_str().unwrap().contains("Kofi"), "{m}");
    // Marked sent once the SMTP server has taken it.
    let c = settled(s.hub()).await;
    assert_eq!(c.failed, 0, "{c:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_without_smtp_nothing_is_sent_and_the_page_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let time = Time::manual(Time::wall().unix_ms());
    let s = server(&Db::Sqlite(dir.path()), &time, None, None).await;
    let addr = s.addr();
    let ama = sign_up_from(AMA, addr, "Ama", PASSWORD).await;
    let r = as_browser(AMA, addr, &ama, "GET", "/api/v1/account/email", None).await;
    assert_eq!(
        r.json(),
        json!({"available": false, "verified": false, "subscribed": false})
    );
    let r = post_signed_in(
        AMA,
        addr,
        &ama,
        "/api/v1/account/email",
        json!({"email": "ama@example.com", "password": PASSWORD}),
    )
    .await;
    assert_eq!(
        (r.status, reason(&r)),
        (409, "mail_off".into()),
        "{}",
        r.body
    );
    let r = post(
        addr,
        "/api/v1/account/password-reset",
        json!({"email": "ama@example.com"}),
    )
    .await;
    assert_eq!(
        (r.status, reason(&r)),
        (409, "mail_off".into()),
        "{}",
        r.body
    );
    let c = s.hub().mail().outbox().await.unwrap();
    assert_eq!((c.queued, c.sent), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_strangers_cannot_flood_an_address_nor_learn_which_exist() {
    let Some(mut smtp) = Smtp::start().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let time = Time::manual(Time::wall().unix_ms());
    let limits = RateLimits {
        sign_in_per_minute: 100,
        ..RateLimits::default()
    };
    let s = server(
        &Db::Sqlite(dir.path()),
        &time,
        Some(mail_config(&smtp)),
        Some(limits),
    )
    .await;
    let addr = s.addr();
    let ama = sign_up_from(AMA, addr, "Ama", PASSWORD).await;
    add_verified(&mut smtp, (AMA, addr, &ama), "ama@example.com", "en").await;

    // One address: its burst of five, then `rate_limited`, whatever the
    // address asked about.
    for i in 0..5 {
        let email = if i % 2 == 0 {
            "ama@example.com"
        } else {
            "x@example.com"
        };
        let r = post_as(
            STRANGER,
            addr,
            "/api/v1/account/password-reset",
            json!({ "email": email }),
        )
        .await;
        assert_eq!((r.status, r.body.as_str()), (202, r#"{"sent":true}"#));
    }
    let r = post_as(
        STRANGER,
        addr,
        "/api/v1/account/password-reset",
        json!({"email": "x@example.com"}),
    )
    .await;
    assert_eq!((r.status, reason(&r)), (429, "mails".into()), "{}", r.body);
    // Many addresses: each answered alike, but Ama gets at most three
    // resets an hour, whoever asks.
    for last in 20..30u8 {
        let r = post_as(
            [127, 0, 1, last],
            addr,
            "/api/v1/account/password-reset",
            json!({"email": "ama@example.com"}),
        )
        .await;
        assert_eq!(r.status, 202, "{}", r.body);
    }
    for _ in 0..3 {
        let m = smtp.mail(20).await;
        assert_eq!(m["to"], json!(["ama@example.com"]));
    }
    let c = s.hub().mail().outbox().await.unwrap();
    // The verification and three resets: nothing else was queued.
    assert_eq!((c.sent + c.queued, c.failed), (4, 0), "{c:?}");
    // A huge body is refused before anything is read.
    let huge = json!({ "email": format!("{}@example.com", "a".repeat(100_000)) }).to_string();
    let r = raw(
        addr,
        "POST",
        "/api/v1/account/password-reset",
        "application/json",
        huge.as_bytes(),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.body);
    // A long address is not one.
    let r = post_as(
        KOFI,
        addr,
        "/api/v1/account/password-reset",
        json!({ "email": format!("{}@example.com", "a".repeat(300)) }),
    )
    .await;
    assert_eq!(reason(&r), "bad_email", "{}", r.body);
    // Guessed links: refused, and guessing is limited like signing in.
    let mut limited = false;
    for i in 0..120 {
        let r = post_as(
            KOFI,
            addr,
            "/api/v1/account/password-reset/confirm",
            json!({"token": format!("{i:064x}"), "new_password": "guessed-password"}),
        )
        .await;
        if r.status == 429 {
            limited = true;
            break;
        }
        assert_eq!(reason(&r), "link_unknown", "{}", r.body);
    }
    assert!(limited, "guessing links is limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_a_tournament_starting_tells_its_entrants_once() {
    use crate::common::tournaments::{call as t_call, create, players, wait_for};
    let Some(mut smtp) = Smtp::start().await else {
        return;
    };
    let (_dir, time, s) = on_sqlite_with_mail(&smtp).await;
    let addr = s.addr();
    let ps = players(addr, 2).await;
    let p = &ps[1];
    add_verified_with(
        &mut smtp,
        (p.src, addr, &p.b),
        "player1@example.com",
        "en",
        "a-long-password",
    )
    .await;
    let body = create("arena", json!({"minutes": 20, "starts_in_s": 60}));
    let r = t_call(addr, &ps[0], "POST", "/api/v1/tournaments", Some(body)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let name = r.json()["name"].as_str().unwrap_or_default().to_string();
    let r = t_call(
        addr,
        p,
        "POST",
        &format!("/api/v1/tournaments/{id}/join"),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    time.advance(Duration::from_secs(59));
    wait_for(addr, p, &id, "the arena running", |v| {
        v["status"] == "running"
    })
    .await;
    let m = smtp.mail(20).await;
    assert_eq!(m["to"], json!(["player1@example.com"]));
    assert!(
        m["subject"].as_str().unwrap().ends_with("is starting"),
        "{m}"
    );
    assert!(m["subject"].as_str().unwrap().contains(&name), "{m}");
    assert!(
        m["text"]
            .as_str()
            .unwrap()
            .contains(&format!("/tournament/{id}")),
        "{m}"
    );
    let c = settled(s.hub()).await;
    assert_eq!(c.sent, 2, "the verification and the start, once: {c:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_a_live_game_tells_on_the_site_only() {
    let Some(mut smtp) = Smtp::start().await else {
        return;
    };
    let (_dir, _time, s) = on_sqlite_with_mail(&smtp).await;
    let addr = s.addr();
    let ama = sign_up_from(AMA, addr, "Ama", PASSWORD).await;
    let kofi = sign_up_from(KOFI, addr, "Kofi", PASSWORD).await;
    add_verified(&mut smtp, (AMA, addr, &ama), "ama@example.com", "en").await;
    add_verified(&mut smtp, (KOFI, addr, &kofi), "kofi@example.com", "en").await;
    let sent = settled(s.hub()).await.sent;
    let mut inbox = crate::notifications::account_ws(addr, &kofi).await.unwrap();
    assert_eq!(recv_type(&mut inbox, "unread").await["unread"], 0);

    let (id, south, _) = crate::notifications::live_game(addr, (AMA, &ama), (KOFI, &kofi)).await;

    // Kofi has no page on the game: told on the site, and no mail (the
    // mail would be queued before the notification is sent).
    play_first_legal_move(addr, &id, &south, 0).await;
    let n = recv_type(&mut inbox, "notification").await;
    assert_eq!(n["notification"]["detail"], "live", "{n}");
    let c = s.hub().mail().outbox().await.unwrap();
    assert_eq!((c.queued, c.sent), (0, sent), "{c:?}");
    assert!(smtp.try_mail().is_none());
}
