//! The server's layering, checked on its source: the store is below the
//! hub, so no file under `src/store/` names the hub (its row types live in
//! the store); and the WebSocket never locks a game, but hands every
//! command to `Hub::apply`. ARCHITECTURE.md states the rules.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_store_module_imports_the_hub() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() >= 5, "found only {files:?}");
    let mut offenders = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("crate::hub") || code.contains("super::super::hub") {
                offenders.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the store imports the hub:\n{}",
        offenders.join("\n")
    );
}

/// The WebSocket only parses and limits: every command goes through the
/// hub's one entry (`Hub::apply`), and the socket never takes a game's
/// lock itself, so there is no second path that could skip a check.
/// The two stores' folders only run SQL and map rows: every rule of
/// storage (ratings, puzzle attempts, caps, the deletion cascade, what a
/// row means) is written once, in the shared `src/store/*.rs`, so the
/// folders name no rule's module and stay small.
#[test]
fn the_store_dialects_run_sql_and_keep_no_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut files = Vec::new();
    rust_files(&root.join("sqlite"), &mut files);
    rust_files(&root.join("postgres"), &mut files);
    assert!(files.len() >= 2, "found only {files:?}");
    let mut lines = 0;
    let mut offenders = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        lines += text.lines().count();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for rule in [
                "ratings::",
                "Score::",
                "username_key(",
                "Cap::",
                "parse_meta(",
                "Status::",
            ] {
                if code.contains(rule) {
                    offenders.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "a store's dialect folder keeps a rule:\n{}",
        offenders.join("\n")
    );
    assert!(lines <= 2_600, "the dialect folders have {lines} lines");
}

#[test]
fn the_websocket_never_locks_a_game() {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ws.rs");
    let text = std::fs::read_to_string(ws).unwrap();
    for needle in [".state.lock", "_locked("] {
        assert!(!text.contains(needle), "ws.rs contains {needle:?}");
    }
    assert!(
        text.contains("hub.apply("),
        "ws.rs sends commands to Hub::apply"
    );
}

/// The server's modules in layers, lowest first: a module may name the
/// modules of its own layer and the layers below, never one above. The
/// accounts' routes and session extractor are handlers, so they sit with
/// the other routes on top.
const LAYERS: &[&[&str]] = &[
    &[
        "error", "time", "config", "model", "security", "listener", "assets", "metrics",
        "schedule", "mailer",
    ],
    &["store"],
    &["accounts", "limits", "engines"],
    &["protocol", "rules"],
    &["hub"],
    &[
        "http",
        "ws",
        "accounts::routes",
        "accounts::session",
        "accounts::community",
        "admin",
        "coach_routes",
        "lesson_routes",
        "puzzle_routes",
        "mistakes_routes",
        "offline_routes",
        "table_routes",
        "tournament_routes",
        "notification_routes",
        "challenge_routes",
        "mail_routes",
        "state",
        "lib",
    ],
];

/// The unit a source file belongs to (its top-level module; the accounts'
/// routes and session apart).
fn unit_of(rel: &str) -> String {
    match rel {
        "accounts/routes.rs" => "accounts::routes".into(),
        "accounts/session.rs" => "accounts::session".into(),
        "accounts/community.rs" => "accounts::community".into(),
        _ => rel
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string(),
    }
}

/// The units a file's code names (`crate::x`, `crate::{x, y}`, `crate::Hub`),
/// comments left out.
fn named_units(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut push = |path: &str| {
        let first = ident(path);
        if first == "Hub" {
            out.insert("hub".to_string());
        } else if first == "accounts" {
            let rest = path.strip_prefix("accounts::").map(ident);
            match rest.as_deref() {
                Some("routes") => out.insert("accounts::routes".into()),
                Some("session") => out.insert("accounts::session".into()),
                _ => out.insert("accounts".into()),
            };
        } else if !first.is_empty() {
            out.insert(first);
        }
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for part in group.split(',') {
                push(part.trim());
            }
        } else {
            push(rest);
        }
    }
    out
}

fn layer_of(unit: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&unit))
}

/// The imports between the server's modules: none runs back up a layer,
/// and there is no circle (the picture issue 20 asked to clean up: 14
/// imports up and one circle through twelve modules before).
#[test]
fn imports_only_run_down_and_make_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    let mut up = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap().to_str().unwrap().to_string();
        let from = unit_of(&rel);
        let from_layer =
            layer_of(&from).unwrap_or_else(|| panic!("{rel}: module {from} is in no layer"));
        for to in named_units(&std::fs::read_to_string(f).unwrap()) {
            let Some(to_layer) = layer_of(&to) else {
                continue;
            };
            if to == from {
                continue;
            }
            if to_layer > from_layer {
                up.push(format!("{rel} ({from}) names {to}"));
            }
            edges.entry(from.clone()).or_default().insert(to);
        }
    }
    assert!(up.is_empty(), "imports running up:\n{}", up.join("\n"));
    // No circle: every unit can be ordered after the ones it names.
    let mut done: std::collections::BTreeSet<String> = Default::default();
    let units: Vec<String> = edges.keys().cloned().collect();
    loop {
        let before = done.len();
        for u in &units {
            if !done.contains(u)
                && edges[u]
                    .iter()
                    .all(|t| done.contains(t) || !edges.contains_key(t))
            {
                done.insert(u.clone());
            }
        }
        if done.len() == before {
            break;
        }
    }
    let stuck: Vec<&String> = units.iter().filter(|u| !done.contains(*u)).collect();
    assert!(
        stuck.is_empty(),
        "modules in a circle of imports: {stuck:?}"
    );
}

/// The server's time is given, never read: every deadline, game clock,
/// tournament minute, lobby grace, rate-limit window and session expiry is
/// read from `Config::time` (`src/time.rs`), so tests run them on a manual
/// clock. Only the machine's own timings read the system, each listed
/// here with why.
#[test]
fn the_server_reads_time_only_from_its_clock() {
    // (file, reads allowed, what they time): the machine's work, not the
    // game's time.
    const MACHINE: &[(&str, usize, &str)] = &[
        (
            "time.rs",
            usize::MAX,
            "the clock itself, and leases between nodes",
        ),
        ("listener.rs", 1, "how long a connection may idle"),
        (
            "hub/mod.rs",
            1,
            "the store's commit latency, for the metrics",
        ),
        ("hub/nodes.rs", 1, "other nodes' heartbeats"),
        ("hub/clock.rs", 5, "its unit tests' instants"),
        ("store/sqlite/mod.rs", 1, "the commit latency"),
        ("store/postgres/mod.rs", 2, "the commit latency"),
    ];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offenders = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap().to_str().unwrap().to_string();
        let allowed = MACHINE
            .iter()
            .find(|(m, _, _)| *m == rel)
            .map_or(0, |(_, n, _)| *n);
        let mut reads = Vec::new();
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for needle in [
                "Instant::now",
                "SystemTime::now",
                "UNIX_EPOCH",
                "tokio::time::sleep_until",
                "Utc::now",
            ] {
                if code.contains(needle) {
                    reads.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
        if reads.len() > allowed {
            offenders.extend(reads);
        }
    }
    assert!(
        offenders.is_empty(),
        "the server reads the system's time outside its clock:\n{}",
        offenders.join("\n")
    );
}

/// What clients send is typed in `protocol/` (docs/PROTOCOL.md): no route
/// handler, socket or account module declares a request shape of its own
/// (`#[derive(Deserialize)]`), so every request body and query has one
/// definition, beside the socket's messages.
#[test]
fn requests_are_typed_in_the_protocol_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let edge = |f: &Path| {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        rel.ends_with("_routes.rs")
            || rel.starts_with("accounts/")
            || ["http.rs", "ws.rs", "admin.rs"].contains(&rel.as_str())
    };
    let mut checked = 0;
    let mut offenders = Vec::new();
    for f in files.iter().filter(|f| edge(f)) {
        checked += 1;
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("#[derive(") && code.contains("Deserialize") {
                offenders.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(checked >= 10, "found only {checked} route files");
    assert!(
        offenders.is_empty(),
        "request types outside protocol/:\n{}",
        offenders.join("\n")
    );
}

/// The hub is sealed: the store is reached through the hub's layer only
/// (its services `Hub::accounts`, `community`, `puzzles`, the games'
/// commit path, and the operator's `hub::operator`). No file outside
/// `hub/` and `store/` names the store, but the process's assembly
/// (`lib.rs`, which opens it) and the rate limiter's windows shared
/// between nodes (`limits.rs`, through `SharedLimits`); the types routes
/// and the protocol share with the store live in `model/`. And the hub's
/// own doors to the store (`read`, `read_bulk`, `write_change`) stay
/// private to it (the compiler holds that once they are; this test holds
/// that they stay so).
#[test]
fn only_the_hub_reaches_the_store() {
    const ASSEMBLY: &[(&str, &str)] = &[
        ("lib.rs", "opens the store the server runs on"),
        ("limits.rs", "rate-limit windows shared between nodes"),
    ];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offenders = Vec::new();
    let mut checked = 0;
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("hub/")
            || rel.starts_with("store/")
            || ASSEMBLY.iter().any(|(a, _)| *a == rel)
        {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("store::") || code.contains("dyn Store") {
                offenders.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(checked >= 30, "found only {checked} files outside the hub");
    assert!(
        offenders.is_empty(),
        "the store named outside the hub's layer:\n{}",
        offenders.join("\n")
    );
    let hub = std::fs::read_to_string(src.join("hub/mod.rs")).unwrap();
    for door in ["fn read<", "fn read_bulk<", "fn write_change("] {
        let line = hub
            .lines()
            .find(|l| l.contains(door))
            .unwrap_or_else(|| panic!("hub/mod.rs has no `{door}`"));
        assert!(
            !line.contains("pub"),
            "the hub's `{door}` is open to other modules: {}",
            line.trim()
        );
    }
}
