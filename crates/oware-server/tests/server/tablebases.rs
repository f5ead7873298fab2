//! The server's endgame tables: built in the background at start, reported
//! by the health check once ready, and used by analyses, which then say
//! "won" or "lost" from the tables instead of an estimate.

use std::time::{Duration, Instant};

use crate::common::*;
use oware_server::config::Tablebases;
use oware_server::{Config, Server};
use serde_json::json;

async fn start_tables(tables: Option<Tablebases>) -> (tempfile::TempDir, Server) {
    start_with(Config {
        engine_threads: 1,
        tablebases: tables,
        ..Config::default()
    })
    .await
}

/// Eight seeds on the board: South's A wins, F loses (the tables say).
const POSITION: &str = "1-0-0-0-0-2-0-0-0-0-1-1-20-23-S";

async fn kinds(addr: std::net::SocketAddr) -> Vec<(String, String)> {
    let r = post(
        addr,
        "/api/v1/analyze",
        json!({"position": POSITION, "movetime_ms": 200}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["score"]["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_built_in_the_background_turn_estimates_into_results() {
    let (dir, server) = start_tables(Some(Tablebases {
        dir: None,
        max_seeds: 8,
    }))
    .await;
    let addr = server.addr();
    let t0 = Instant::now();
    loop {
        let h = get(addr, "/api/v1/health").await.json();
        if h["tablebase_seeds"] == 8 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "tables never ready: {h}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let k = kinds(addr).await;
    assert!(k.contains(&("A".into(), "tablebase_win".into())), "{k:?}");
    assert!(k.contains(&("F".into(), "tablebase_loss".into())), "{k:?}");
    drop(server);
    drop(dir);
    // Without tables the same analysis is only an estimate.
    let (_dir, server) = start_tables(None).await;
    let k = kinds(server.addr()).await;
    assert!(
        k.iter().all(|(_, kind)| !kind.starts_with("tablebase")),
        "{k:?}"
    );
    let h = get(server.addr(), "/api/v1/health").await.json();
    assert!(h["tablebase_seeds"].is_null());
}
