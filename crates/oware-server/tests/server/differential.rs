//! SQLite and PostgreSQL answer the same: one scripted run of the site
//! (accounts, a rated game, a correspondence game lost on time, follows,
//! blocks and reports, puzzle attempts, an arena joined and left, a Swiss
//! played to its end, notifications, a challenge accepted, e-mail (an
//! address verified, resets asked for, unsubscribing), game search, an
//! export, an account deleted) is played against a server on each store,
//! on manual clocks that start at the same instant and move the same way,
//! and every answer is compared field by field. Only what is random by
//! design (game ids, seat tokens, session and CSRF tokens) is named
//! before the comparison; everything else must be equal, down to each
//! timestamp and list order.

use std::net::SocketAddr;
use std::time::Duration;

use oware_server::time::Time;
use oware_server::{Config, Server, ServerOptions};
use serde_json::{json, Value};

use crate::common::tournaments;
use crate::common::*;

/// 2027-01-04 09:00 UTC: both servers' clocks start here.
const START_MS: i64 = 1_799_053_200_000;

const AMA: [u8; 4] = [127, 0, 2, 1];
const KOFI: [u8; 4] = [127, 0, 2, 2];
const EVE: [u8; 4] = [127, 0, 2, 3];

/// Who asks: a source address and a browser.
type Player<'a> = (&'a [u8; 4], &'a Browser);

/// One answer: what was asked, the status, the body.
type Answer = (String, u16, Value);

/// A scripted visit: every answer is kept, and the clock moves one second
/// after each request, so no two events share a timestamp (a tie could
/// be listed in either order by either store, which is no difference).
struct Run {
    addr: SocketAddr,
    hub: std::sync::Arc<oware_server::Hub>,
    time: Time,
    answers: Vec<Answer>,
    /// Random strings and the names they get, in order of appearance.
    names: Vec<(String, String)>,
    /// The SMTP server the mails go to (none without aiosmtpd, on both
    /// runs alike: then every e-mail request is `mail_off`).
    smtp: Option<crate::common::smtp::Smtp>,
}

impl Run {
    async fn call(
        &mut self,
        what: &str,
        (src, b): Player<'_>,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Value {
        let r = as_browser(*src, self.addr, b, method, path, body).await;
        // A body that is not JSON (a game record) is kept as text.
        let v = if r.body.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&r.body).unwrap_or_else(|_| Value::String(r.body.clone()))
        };
        self.answers.push((what.to_string(), r.status, v.clone()));
        self.time.advance(Duration::from_secs(1));
        v
    }

    /// Looks at tournament `id` (as `p`) until `done` holds, moving the
    /// clock a second at a time and waiting for the director's tick at
    /// each second to be over before looking: the same ticks at the same
    /// times on both stores.
    async fn ticked_until(
        &self,
        p: &tournaments::Player,
        id: &str,
        what: &str,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        for _ in 0..120 {
            self.director_done(what).await;
            let v = tournaments::view(self.addr, p, id).await;
            if done(&v) {
                return v;
            }
            self.time.advance(Duration::from_secs(1));
        }
        panic!("{what}: not within 120 ticks");
    }

    /// Waits for the director's look at the clock's current second to end.
    async fn director_done(&self, what: &str) {
        let at = self.time.unix_ms();
        let started = std::time::Instant::now();
        while self.hub.metrics().director_done_at() < at {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{what}: the director's tick at {at} did not end"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// Moves the clock on a second and waits for the director's look at
    /// it, so no look runs at the same time as the next request (which of
    /// the two came first would shift a round's times by a second).
    async fn tick(&self, what: &str) {
        self.time.advance(Duration::from_secs(1));
        self.director_done(what).await;
    }

    /// `random` is named `<kind N>` in every answer.
    fn name(&mut self, kind: &str, random: &str) {
        assert!(random.len() >= 6, "{kind}: {random:?} is too short to name");
        if !self.names.iter().any(|(r, _)| r == random) {
            let n = self.names.len() + 1;
            self.names
                .push((random.to_string(), format!("<{kind} {n}>")));
        }
    }

    /// Names the invitation code in a created game's `invite_url`.
    fn name_invite(&mut self, created: &Value) {
        let url = created["invite_url"].as_str().unwrap();
        let code = url.split("invite=").nth(1).unwrap().to_string();
        self.name("invite", &code);
    }

    /// The answers with their random strings named.
    fn named(&self) -> Vec<Answer> {
        let mut names = self.names.clone();
        names.sort_by_key(|(r, _)| std::cmp::Reverse(r.len()));
        self.answers
            .iter()
            .map(|(what, status, v)| {
                let mut text = v.to_string();
                for (random, name) in &names {
                    text = text.replace(random.as_str(), name);
                }
                (what.clone(), *status, serde_json::from_str(&text).unwrap())
            })
            .collect()
    }
}

/// Signs up `name` from `src` (through the run, so the answer is kept).
async fn sign_up(run: &mut Run, src: &[u8; 4], name: &str) -> Browser {
    let r = as_browser(
        *src,
        run.addr,
        &Browser::default(),
        "POST",
        "/api/v1/account/signup",
        Some(json!({"username": name, "password": "seeds-and-houses"})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let b = Browser {
        cookie: session_cookie(&r),
        csrf: r.json()["csrf"].as_str().map(str::to_string),
    };
    run.name("csrf", b.csrf.as_deref().unwrap());
    run.answers
        .push((format!("sign up {name}"), r.status, r.json()));
    run.time.advance(Duration::from_secs(1));
    b
}

/// A rated public game created by `south` and joined by `north`, its
/// random strings named: its id and both seat tokens.
async fn rated_game(
    run: &mut Run,
    what: &str,
    (south, north): (Player<'_>, Player<'_>),
    time_control: Value,
) -> (String, String, String) {
    let c = run
        .call(
            &format!("{what} created"),
            south,
            "POST",
            "/api/v1/games",
            Some(
                json!({"mode": "online", "rated": true, "public": true, "side": "S",
                        "time_control": time_control}),
            ),
        )
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    run.name("game", &id);
    run.name_invite(&c);
    let s = c["tokens"]["S"].as_str().unwrap().to_string();
    run.name("token", &s);
    let j = run
        .call(
            &format!("{what} joined"),
            north,
            "POST",
            &format!("/api/v1/games/{id}/join"),
            Some(json!({})),
        )
        .await;
    let n = j["token"].as_str().unwrap().to_string();
    run.name("token", &n);
    (id, s, n)
}

/// The script, the same for both stores.
async fn script(run: &mut Run) {
    let anon = Browser::default();
    let ama_b = sign_up(run, &AMA, "Ama").await;
    let kofi_b = sign_up(run, &KOFI, "Kofi").await;
    let eve_b = sign_up(run, &EVE, "Eve").await;
    let (ama, kofi, eve) = ((&AMA, &ama_b), (&KOFI, &kofi_b), (&EVE, &eve_b));
    let nobody = (&[127, 0, 2, 9], &anon);

    // A rated game, Ama against Kofi, won by Kofi: both ratings move.
    let (rated, ama_token, kofi_token) = rated_game(
        run,
        "rated game",
        (ama, kofi),
        json!({"initial_ms": 600_000, "increment_ms": 5_000}),
    )
    .await;
    for (ply, (mv, token, who)) in [
        ("F", &ama_token, ama),
        ("f", &kofi_token, kofi),
        ("E", &ama_token, ama),
        ("e", &kofi_token, kofi),
    ]
    .into_iter()
    .enumerate()
    {
        run.call(
            &format!("rated game move {mv}"),
            who,
            "POST",
            &format!("/api/v1/games/{rated}/moves"),
            Some(json!({"token": token, "move": mv, "ply": ply})),
        )
        .await;
    }
    run.call(
        "rated game resigned",
        ama,
        "POST",
        &format!("/api/v1/games/{rated}/resign"),
        Some(json!({"token": ama_token})),
    )
    .await;
    run.call(
        "rated game",
        nobody,
        "GET",
        &format!("/api/v1/games/{rated}"),
        None,
    )
    .await;
    run.call(
        "rated game's record",
        nobody,
        "GET",
        &format!("/api/v1/games/{rated}/ogn"),
        None,
    )
    .await;

    // A correspondence game, Kofi against Eve, lost on time by Eve.
    let (slow, kofi_slow, _) = rated_game(
        run,
        "correspondence game",
        (kofi, eve),
        json!({"days_per_move": 1}),
    )
    .await;
    run.call(
        "correspondence move",
        kofi,
        "POST",
        &format!("/api/v1/games/{slow}/moves"),
        Some(json!({"token": kofi_slow, "move": "C", "ply": 0})),
    )
    .await;
    run.call(
        "Eve's games, her move",
        eve,
        "GET",
        "/api/v1/account/games",
        None,
    )
    .await;
    // Eve is told it is her move (stored just after the move; waited for
    // unrecorded), and her notifications say so.
    for _ in 0..500 {
        let r = as_browser(EVE, run.addr, &eve_b, "GET", "/api/v1/account", None).await;
        if r.json()["unread"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let n = run
        .call(
            "Eve's notifications",
            eve,
            "GET",
            "/api/v1/notifications",
            None,
        )
        .await;
    for item in n["items"].as_array().unwrap() {
        run.name("notification", item["id"].as_str().unwrap());
    }
    // A spectator's socket hears the end: the clock moves past Eve's day.
    let mut watcher = ws(run.addr, &slow, None).await;
    recv_type(&mut watcher, "state").await;
    run.time.advance(Duration::from_secs(86_400 + 60));
    let end = recv_type(&mut watcher, "end").await;
    assert_eq!(end["result"]["reason"], "time", "{end}");
    run.call(
        "correspondence game, lost on time",
        nobody,
        "GET",
        &format!("/api/v1/games/{slow}"),
        None,
    )
    .await;

    // Follows, a block and a report.
    run.call(
        "Ama follows Kofi",
        ama,
        "POST",
        "/api/v1/players/Kofi/follow",
        Some(json!({})),
    )
    .await;
    run.call(
        "Eve follows Ama",
        eve,
        "POST",
        "/api/v1/players/Ama/follow",
        Some(json!({})),
    )
    .await;
    run.call(
        "Kofi blocks Eve",
        kofi,
        "POST",
        "/api/v1/players/Eve/block",
        Some(json!({})),
    )
    .await;
    let r = run
        .call(
            "Eve reports Kofi",
            eve,
            "POST",
            "/api/v1/players/Kofi/report",
            Some(json!({"reason": "abuse", "details": "rude in the chat", "game": slow})),
        )
        .await;
    run.name("report", r["id"].as_str().unwrap());
    for (who, name) in [(ama, "Ama"), (kofi, "Kofi"), (eve, "Eve")] {
        run.call(
            &format!("{name}'s relations"),
            who,
            "GET",
            "/api/v1/account/relations",
            None,
        )
        .await;
    }

    // One puzzle: Ama misses it, then Kofi solves it (the first attempt
    // of each rates both the player and the puzzle).
    let puzzle = &oware_session::puzzles::shipped().puzzles[0];
    let pid = puzzle.id;
    let wrong = puzzle
        .position
        .legal_moves()
        .into_iter()
        .find(|&m| m != puzzle.solution)
        .unwrap()
        .letter()
        .to_string();
    let line: Vec<String> = puzzle.line.iter().map(|m| m.letter().to_string()).collect();
    run.call(
        "the puzzle",
        nobody,
        "GET",
        &format!("/api/v1/puzzles/{pid}"),
        None,
    )
    .await;
    run.call(
        "Ama misses the puzzle",
        ama,
        "POST",
        &format!("/api/v1/puzzles/{pid}/attempt"),
        Some(json!({"moves": [wrong]})),
    )
    .await;
    run.call(
        "Kofi's attempt at the puzzle",
        kofi,
        "POST",
        &format!("/api/v1/puzzles/{pid}/attempt"),
        Some(json!({"moves": line})),
    )
    .await;
    run.call(
        "the puzzle after",
        nobody,
        "GET",
        &format!("/api/v1/puzzles/{pid}"),
        None,
    )
    .await;

    // A tournament: created by Ama, joined by Kofi and Eve, left by Eve.
    let t = run
        .call(
            "arena created",
            ama,
            "POST",
            "/api/v1/tournaments",
            Some(json!({"name": "Saturday arena", "kind": "arena",
                        "time_control": {"initial_ms": 180_000, "increment_ms": 2_000},
                        "minutes": 30, "starts_in_s": 3_600})),
        )
        .await;
    let tid = t["id"].as_str().unwrap().to_string();
    run.name("tournament", &tid);
    {
        for (who, name) in [(kofi, "Kofi"), (eve, "Eve")] {
            run.call(
                &format!("{name} joins the arena"),
                who,
                "POST",
                &format!("/api/v1/tournaments/{tid}/join"),
                Some(json!({})),
            )
            .await;
        }
        run.call(
            "Eve leaves the arena",
            eve,
            "POST",
            &format!("/api/v1/tournaments/{tid}/leave"),
            Some(json!({})),
        )
        .await;
        run.call(
            "the arena",
            nobody,
            "GET",
            &format!("/api/v1/tournaments/{tid}"),
            None,
        )
        .await;
    }
    run.call("tournaments", nobody, "GET", "/api/v1/tournaments", None)
        .await;

    // A Swiss of five, two rounds with a bye each, played to its end
    // (each game: one move a side, then South resigns).
    let ps = tournaments::players(run.addr, 5).await;
    for p in &ps {
        run.name("csrf", p.b.csrf.as_deref().unwrap());
    }
    let t = run
        .call(
            "Swiss created",
            (&ps[0].src, &ps[0].b),
            "POST",
            "/api/v1/tournaments",
            Some(tournaments::create(
                "swiss",
                json!({"rounds": 2, "starts_in_s": 60}),
            )),
        )
        .await;
    let swiss = t["id"].as_str().unwrap().to_string();
    run.name("tournament", &swiss);
    for p in &ps[1..] {
        run.call(
            &format!("{} joins the Swiss", p.name),
            (&p.src, &p.b),
            "POST",
            &format!("/api/v1/tournaments/{swiss}/join"),
            None,
        )
        .await;
    }
    run.time.advance(Duration::from_secs(60));
    for round in 1..=2 {
        // The round's games in a fixed order (by South's name), each
        // played a second apart, so both runs name and end them alike.
        let v = run
            .ticked_until(&ps[0], &swiss, "the round's pairings", |v| {
                v["round"].as_u64() == Some(round)
            })
            .await;
        let mut pairings: Vec<Value> = v["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["round"].as_u64() == Some(round))
            .cloned()
            .collect();
        pairings.sort_by_key(|g| g["south"].as_str().unwrap().to_string());
        for g in pairings {
            if let Some(game) = g["id"].as_str() {
                run.name("game", game);
                tournaments::play_and_resign(run.addr, &ps, game).await;
                run.tick("a round's game played").await;
            }
        }
    }
    run.ticked_until(&ps[0], &swiss, "the end", |v| v["status"] == "finished")
        .await;
    run.call(
        "the Swiss, finished",
        nobody,
        "GET",
        &format!("/api/v1/tournaments/{swiss}"),
        None,
    )
    .await;
    // A round's games are paired at one instant: the list orders them by
    // their random ids, which is no difference.
    let last = run.answers.last_mut().unwrap();
    last.2["games"]
        .as_array_mut()
        .unwrap()
        .sort_by_key(|g| (g["round"].as_u64(), g["south"].as_str().map(str::to_string)));
    for p in &ps {
        run.call(
            &format!("{}'s profile", p.name),
            nobody,
            "GET",
            &format!("/api/v1/players/{}", p.name),
            None,
        )
        .await;
    }
    run.call("fast ratings", nobody, "GET", "/api/v1/ratings/fast", None)
        .await;

    // A challenge: Kofi cannot challenge Eve (he blocked her); Ama
    // challenges Kofi, who accepts; Ama is told and reads it.
    run.call(
        "Kofi challenges Eve, blocked",
        kofi,
        "POST",
        "/api/v1/players/Eve/challenge",
        Some(json!({})),
    )
    .await;
    let c = run
        .call(
            "Ama challenges Kofi",
            ama,
            "POST",
            "/api/v1/players/Kofi/challenge",
            Some(json!({"side": "S"})),
        )
        .await;
    let challenge = c["id"].as_str().unwrap().to_string();
    run.name("challenge", &challenge);
    let n = run
        .call(
            "Kofi's notifications",
            kofi,
            "GET",
            "/api/v1/notifications",
            None,
        )
        .await;
    for item in n["items"].as_array().unwrap() {
        run.name("notification", item["id"].as_str().unwrap());
    }
    run.call("Kofi's challenges", kofi, "GET", "/api/v1/challenges", None)
        .await;
    let a = run
        .call(
            "Kofi accepts",
            kofi,
            "POST",
            &format!("/api/v1/challenges/{challenge}/accept"),
            Some(json!({})),
        )
        .await;
    run.name("game", a["game"].as_str().unwrap());
    run.call(
        "Kofi accepts again",
        kofi,
        "POST",
        &format!("/api/v1/challenges/{challenge}/accept"),
        Some(json!({})),
    )
    .await;
    let n = run
        .call(
            "Ama's notifications",
            ama,
            "GET",
            "/api/v1/notifications",
            None,
        )
        .await;
    for item in n["items"].as_array().unwrap() {
        run.name("notification", item["id"].as_str().unwrap());
    }
    run.call(
        "Ama reads them",
        ama,
        "POST",
        "/api/v1/notifications/read",
        Some(json!({"all": true})),
    )
    .await;

    // What everyone sees of the players.
    for name in ["Ama", "Kofi", "Eve"] {
        run.call(
            &format!("{name}'s profile"),
            nobody,
            "GET",
            &format!("/api/v1/players/{name}"),
            None,
        )
        .await;
    }
    for class in ["slow", "correspondence"] {
        run.call(
            &format!("{class} ratings"),
            nobody,
            "GET",
            &format!("/api/v1/ratings/{class}"),
            None,
        )
        .await;
    }
    run.call("Ama's account", ama, "GET", "/api/v1/account", None)
        .await;
    run.call("Kofi's games", kofi, "GET", "/api/v1/account/games", None)
        .await;
    run.call(
        "Kofi's games against Ama",
        kofi,
        "GET",
        "/api/v1/account/games?opponent=ama",
        None,
    )
    .await;
    run.call(
        "Kofi's won games",
        kofi,
        "GET",
        "/api/v1/account/games?result=won",
        None,
    )
    .await;
    run.call(
        "Ama's lost games this month",
        ama,
        "GET",
        "/api/v1/account/games?result=lost&from=2027-01-01&to=2027-01-31",
        None,
    )
    .await;
    mail(run, ama, nobody).await;
    run.call("Ama's export", ama, "GET", "/api/v1/account/export", None)
        .await;

    // Eve deletes her account: her games stay, her name does not.
    run.call(
        "Eve deletes her account",
        eve,
        "POST",
        "/api/v1/account/delete",
        Some(json!({"password": "seeds-and-houses"})),
    )
    .await;
    run.call(
        "the correspondence game after",
        nobody,
        "GET",
        &format!("/api/v1/games/{slow}"),
        None,
    )
    .await;
    run.call(
        "Eve's profile after",
        nobody,
        "GET",
        "/api/v1/players/Eve",
        None,
    )
    .await;
    run.call(
        "Ama's relations after",
        ama,
        "GET",
        "/api/v1/account/relations",
        None,
    )
    .await;
    run.call(
        "Kofi's profile after",
        nobody,
        "GET",
        "/api/v1/players/Kofi",
        None,
    )
    .await;
}

/// E-mail: an address added in French and verified by its mail's link
/// (the link refused the second time), resets asked for a known and an
/// unknown address (the same answer), a guessed reset link refused, the
/// mails stopped by the unsubscribe link.
async fn mail(run: &mut Run, ama: Player<'_>, nobody: Player<'_>) {
    use crate::common::smtp::link_token;
    run.call("Ama's e-mail", ama, "GET", "/api/v1/account/email", None)
        .await;
    run.call(
        "Ama adds an address",
        ama,
        "POST",
        "/api/v1/account/email",
        Some(json!({"email": "Ama@Example.com", "password": "seeds-and-houses", "lang": "fr"})),
    )
    .await;
    let mut verify = "0".repeat(64);
    let mut unsubscribe = "0".repeat(64);
    if let Some(smtp) = run.smtp.as_mut() {
        let m = smtp.mail(20).await;
        verify = link_token(&m, "verify-email");
        unsubscribe = link_token(&m, "unsubscribe");
    }
    for what in ["Ama verifies it", "the link again"] {
        run.call(
            what,
            nobody,
            "POST",
            "/api/v1/email/verify",
            Some(json!({ "token": verify })),
        )
        .await;
    }
    for (what, email) in [
        ("a reset for Ama's address", "ama@example.com"),
        ("a reset for nobody's", "nobody@example.com"),
    ] {
        run.call(
            what,
            nobody,
            "POST",
            "/api/v1/account/password-reset",
            Some(json!({ "email": email })),
        )
        .await;
    }
    if let Some(smtp) = run.smtp.as_mut() {
        assert_eq!(smtp.mail(20).await["to"], json!(["Ama@Example.com"]));
    }
    run.call(
        "a guessed reset link",
        nobody,
        "POST",
        "/api/v1/account/password-reset/confirm",
        Some(json!({"token": "ab".repeat(32), "new_password": "a-guessed-password"})),
    )
    .await;
    run.call(
        "Ama unsubscribes",
        nobody,
        "POST",
        "/api/v1/email/unsubscribe",
        Some(json!({ "token": unsubscribe })),
    )
    .await;
    run.call(
        "Ama's e-mail after",
        ama,
        "GET",
        "/api/v1/account/email",
        None,
    )
    .await;
}

/// The fields where `a` (SQLite's) and `b` (PostgreSQL's) differ.
fn diff(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                let (va, vb) = (x.get(k), y.get(k));
                let p = format!("{path}.{k}");
                match (va, vb) {
                    (Some(va), Some(vb)) => diff(&p, va, vb, out),
                    _ => out.push(format!("{p}: {va:?} on SQLite, {vb:?} on PostgreSQL")),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(&format!("{path}[{i}]"), va, vb, out);
            }
        }
        _ if a != b => out.push(format!("{path}: {a} on SQLite, {b} on PostgreSQL")),
        _ => {}
    }
}

async fn run_on(db: Option<std::path::PathBuf>, postgres: Option<String>) -> Vec<Answer> {
    let time = Time::manual(START_MS);
    let smtp = crate::common::smtp::Smtp::start().await;
    let mail = smtp.as_ref().map(|smtp| {
        oware_server::mailer::MailConfig::parse(&smtp.url(), "site@oware.test", "http://oware.test")
            .unwrap()
    });
    let server = Server::start(ServerOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        db,
        postgres,
        config: Config {
            engine_threads: 1,
            rate_limits: None,
            swiss_break: Duration::ZERO,
            time: time.clone(),
            mail,
            ..Config::default()
        },
        ..ServerOptions::default()
    })
    .await
    .expect("server starts");
    let mut run = Run {
        addr: server.addr(),
        hub: server.hub().clone(),
        time,
        answers: Vec::new(),
        names: Vec::new(),
        smtp,
    };
    script(&mut run).await;
    server.abort();
    run.named()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_and_postgresql_answer_the_same() {
    let Some(cluster) = crate::common::pg::Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let lite = run_on(Some(dir.path().join("games.sqlite3")), None).await;
    let pg = run_on(None, Some(cluster.database("differential"))).await;
    assert_eq!(lite.len(), pg.len());
    let mut differences = Vec::new();
    for ((what, s1, v1), (_, s2, v2)) in lite.iter().zip(&pg) {
        if s1 != s2 {
            differences.push(format!("{what}: status {s1} on SQLite, {s2} on PostgreSQL"));
        }
        let mut fields = Vec::new();
        diff("", v1, v2, &mut fields);
        for f in fields {
            differences.push(format!("{what}: {f}"));
        }
    }
    // The script must have done what it says, on either store.
    let status = |what: &str| {
        lite.iter()
            .find(|(w, _, _)| w == what)
            .unwrap_or_else(|| panic!("no answer for {what}"))
            .1
    };
    for (what, expected) in [
        ("rated game resigned", 200),
        ("Eve reports Kofi", 201),
        ("Kofi's attempt at the puzzle", 200),
        ("arena created", 200),
        ("Kofi challenges Eve, blocked", 409),
        ("Ama challenges Kofi", 201),
        ("Kofi accepts", 200),
        ("Kofi accepts again", 409),
        ("Eve deletes her account", 204),
        ("Eve's profile after", 404),
    ] {
        let seen: Vec<_> = lite.iter().map(|(w, s, _)| format!("{s} {w}")).collect();
        assert_eq!(status(what), expected, "{what}: {seen:#?}");
    }
    // With the SMTP server (always in CI: OWARE_TEST_SMTP=required), the
    // e-mail steps did what they say.
    if status("Ama adds an address") == 202 {
        for (what, expected) in [
            ("Ama verifies it", 200),
            ("the link again", 403),
            ("a reset for Ama's address", 202),
            ("a reset for nobody's", 202),
            ("a guessed reset link", 403),
            ("Ama unsubscribes", 200),
        ] {
            assert_eq!(status(what), expected, "{what}");
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} answers differ:\n{}",
        differences.len(),
        lite.len(),
        differences.join("\n")
    );
}
