//! The same contract for both stores: SQLite (the embedded default) and
//! PostgreSQL (several nodes). Every check runs against each.

use std::sync::Arc;
use std::time::Duration;

use oware_core::Position;
use oware_server::accounts::ratings::RatingClass;
use oware_server::accounts::{AccountRow, RatedGame, SessionRow};
use oware_server::hub::chat::{ChatMessage, Room};
use oware_server::model::{GameMeta, Mode, Seat};
use oware_server::store::account_rows::AccountOp;
use oware_server::store::{
    ChatPage, Due, Lease, Listing, Notice, PgStore, SqliteStore, Store, StoreError, StoredPly,
    WriteOp,
};

fn now_ms() -> i64 {
    oware_server::time::Time::wall().unix_ms()
}

async fn write(store: &Arc<dyn Store>, op: WriteOp) -> Result<(), StoreError> {
    store.write(op).await.expect("the writer answers")
}

async fn blocking<T: Send + 'static>(
    store: &Arc<dyn Store>,
    f: impl FnOnce(&dyn Store) -> T + Send + 'static,
) -> T {
    let store = store.clone();
    tokio::task::spawn_blocking(move || f(store.as_ref()))
        .await
        .unwrap()
}

fn meta() -> GameMeta {
    let seat = |name: &str| Seat::human(name.to_string()).0;
    GameMeta::new(
        Mode::Online,
        None,
        true,
        Position::start(),
        [seat("Ama"), seat("Kofi")],
        None,
        now_ms(),
    )
    .0
}

fn ply(text: &str) -> StoredPly {
    StoredPly {
        text: text.to_string(),
        clock: None,
        at: now_ms(),
    }
}

fn version(id: &str, expected: u64, due: Due) -> WriteOp {
    WriteOp::Version {
        id: id.to_string(),
        expected: Some(expected),
        due,
    }
}

async fn contract(store: Arc<dyn Store>) {
    // A game is created at version 0 with its deadlines.
    let now = now_ms();
    let game = meta();
    let id = game.id.clone();
    let due = Due {
        clock: Some(now - 5_000),
        at: Some(now - 5_000),
    };
    write(
        &store,
        WriteOp::Create {
            meta: game.clone(),
            plies: vec![],
            due,
        },
    )
    .await
    .unwrap();
    let key = id.clone();
    let stored = blocking(&store, move |s| s.load(&key))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (stored.version, stored.due, stored.plies.len()),
        (0, due, 0)
    );

    // A change from the current version is stored and moves the version on.
    write(
        &store,
        WriteOp::All(vec![
            version(&id, 0, Due::default()),
            WriteOp::Ply {
                id: id.clone(),
                meta: None,
                index: 0,
                ply: ply("C"),
            },
        ]),
    )
    .await
    .unwrap();
    // A change from an old version is refused whole: nothing of it stays.
    let stale = write(
        &store,
        WriteOp::All(vec![
            version(&id, 0, Due::default()),
            WriteOp::Ply {
                id: id.clone(),
                meta: None,
                index: 1,
                ply: ply("h"),
            },
        ]),
    )
    .await
    .unwrap_err();
    assert!(stale.is_stale(), "{stale}");
    // The (game, ply) key refuses a second ply at one index too.
    let twice = write(
        &store,
        WriteOp::All(vec![
            version(&id, 1, Due::default()),
            WriteOp::Ply {
                id: id.clone(),
                meta: None,
                index: 0,
                ply: ply("D"),
            },
        ]),
    )
    .await;
    assert!(twice.is_err());
    let key = id.clone();
    let stored = blocking(&store, move |s| s.load(&key))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.version, 1);
    assert_eq!(stored.due, Due::default());
    assert_eq!(
        stored
            .plies
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>(),
        ["C"]
    );

    // Overdue games are claimed once per lease.
    let late = meta();
    let late_id = late.id.clone();
    write(
        &store,
        WriteOp::Create {
            meta: late,
            plies: vec![],
            due: Due {
                clock: None,
                at: Some(now - 1_000),
            },
        },
    )
    .await
    .unwrap();
    let lease = |at: i64| Lease {
        now: at,
        ms: 10_000,
    };
    let claimed = blocking(&store, move |s| s.claim_due(now, lease(now), 10))
        .await
        .unwrap();
    assert_eq!(claimed, vec![late_id.clone()]);
    let again = blocking(&store, move |s| s.claim_due(now + 1, lease(now + 1), 10))
        .await
        .unwrap();
    assert!(
        again.is_empty(),
        "claimed twice within the lease: {again:?}"
    );
    // The lease runs on the machines' time: once it has passed, the game
    // is claimed again even though the server's clock stood still.
    let after = blocking(&store, move |s| s.claim_due(now, lease(now + 20_000), 10))
        .await
        .unwrap();
    assert_eq!(after, vec![late_id.clone()]);
    // A stored change sets new deadlines (and ends the claim).
    write(&store, version(&late_id, 0, Due::default()))
        .await
        .unwrap();
    let none = blocking(&store, move |s| {
        s.claim_due(now + 60_000, lease(now + 60_000), 10)
    })
    .await
    .unwrap();
    assert!(none.is_empty());

    // Accounts: a taken name is a conflict; sessions; a game rated once.
    let account = |id: &str, name: &str| AccountRow {
        id: id.to_string(),
        username: name.to_string(),
        password_hash: "x".to_string(),
        created_at: now,
    };
    for (i, n) in [("a1", "Ama"), ("a2", "Kofi")] {
        write(&store, WriteOp::Account(AccountOp::Create(account(i, n))))
            .await
            .unwrap();
    }
    let taken = write(
        &store,
        WriteOp::Account(AccountOp::Create(account("a3", "AMA"))),
    )
    .await
    .unwrap_err();
    assert!(taken.is_conflict(), "{taken}");
    // A deleted account's name stays reserved (30 days): taking it again
    // is a conflict too, and the name's other uses are untouched.
    write(
        &store,
        WriteOp::Account(AccountOp::Create(account("a9", "Esi"))),
    )
    .await
    .unwrap();
    write(
        &store,
        WriteOp::Account(AccountOp::Delete {
            id: "a9".into(),
            at: now,
        }),
    )
    .await
    .unwrap();
    let reserved = write(
        &store,
        WriteOp::Account(AccountOp::Create(account("a10", "esi"))),
    )
    .await
    .unwrap_err();
    assert!(reserved.is_conflict(), "{reserved}");
    let later = AccountRow {
        created_at: now + 31 * 86_400_000,
        ..account("a11", "Esi")
    };
    write(&store, WriteOp::Account(AccountOp::Create(later)))
        .await
        .expect("free again after 30 days");
    // The 30 days run on the server's clock, the one the deletion was
    // stamped with.
    write(
        &store,
        WriteOp::Account(AccountOp::Create(account("a12", "Yaa"))),
    )
    .await
    .unwrap();
    write(
        &store,
        WriteOp::Account(AccountOp::Delete {
            id: "a12".into(),
            at: now - 31 * 86_400_000,
        }),
    )
    .await
    .unwrap();
    write(
        &store,
        WriteOp::Account(AccountOp::Create(account("a13", "yaa"))),
    )
    .await
    .expect("released 31 days ago by the server's clock");
    write(
        &store,
        WriteOp::Account(AccountOp::CreateSession(SessionRow {
            token_hash: vec![1, 2, 3],
            account_id: "a1".into(),
            csrf: "c".into(),
            created_at: now,
            expires_at: now + 1_000,
        })),
    )
    .await
    .unwrap();
    let (session, owner) = blocking(&store, |s| s.session(&[1, 2, 3]))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (session.csrf.as_str(), owner.username.as_str()),
        ("c", "Ama")
    );
    let rate = WriteOp::Account(AccountOp::Rate(RatedGame {
        game_id: id.clone(),
        class: RatingClass::Slow,
        accounts: ["a1".into(), "a2".into()],
        winner: Some(oware_core::Side::South),
        at: now,
    }));
    write(&store, rate.clone()).await.unwrap();
    write(&store, rate).await.unwrap();
    let ratings = blocking(&store, |s| s.ratings("a1")).await.unwrap();
    let slow = ratings
        .iter()
        .find(|r| r.class == RatingClass::Slow)
        .unwrap();
    assert_eq!(slow.rating.games, 1, "rated exactly once");
    assert!(slow.rating.rating > 1500.0);
    let history = blocking(&store, |s| s.rating_history("a2")).await.unwrap();
    assert_eq!(history.len(), 1);
    let board = blocking(&store, |s| s.leaderboard(RatingClass::Slow, 10, true))
        .await
        .unwrap();
    assert_eq!(board[0].0, "Ama");

    // Chat: kept in order, rooms apart, read a page at a time.
    for (room, text) in [
        (Room::Players, "hello"),
        (Room::Spectators, "psst"),
        (Room::Players, "again"),
        (Room::Players, "and again"),
    ] {
        write(
            &store,
            WriteOp::Chat(ChatMessage {
                id: None,
                game_id: id.clone(),
                room,
                side: None,
                name: "x".into(),
                text: text.into(),
                at: now,
                account: Some("a1".into()),
            }),
        )
        .await
        .unwrap();
    }
    let page = |before, limit| ChatPage { before, limit };
    let key = id.clone();
    let players = blocking(&store, move |s| s.chat(&key, false, page(None, 10)))
        .await
        .unwrap();
    assert_eq!(players.len(), 3);
    let key = id.clone();
    let all = blocking(&store, move |s| s.chat(&key, true, page(None, 10)))
        .await
        .unwrap();
    let texts = |ms: &[ChatMessage]| ms.iter().map(|m| m.text.clone()).collect::<Vec<_>>();
    assert_eq!(texts(&all), ["hello", "psst", "again", "and again"]);
    assert!(
        all.iter().all(|m| m.account.as_deref() == Some("a1")),
        "the writer's account is kept"
    );
    // The latest two, then the two before the older of them.
    let key = id.clone();
    let last = blocking(&store, move |s| s.chat(&key, true, page(None, 2)))
        .await
        .unwrap();
    assert_eq!(texts(&last), ["again", "and again"]);
    let (key, before) = (id.clone(), last[0].id);
    assert!(before.is_some());
    let earlier = blocking(&store, move |s| s.chat(&key, true, page(before, 2)))
        .await
        .unwrap();
    assert_eq!(texts(&earlier), ["hello", "psst"]);
    let key = id.clone();
    let counts = blocking(&store, move |s| {
        Ok::<_, StoreError>((
            s.chat_count(&key, Room::Players)?,
            s.chat_count(&key, Room::Spectators)?,
        ))
    })
    .await
    .unwrap();
    assert_eq!(counts, (3, 1));
    puzzles(&store).await;
    community(&store).await;
    browser_engine(&store).await;
    lobby(&store).await;
    tournaments(&store).await;
    blocking(&store, |s| s.ping()).await.unwrap();
}

/// Follows, blocks, reports and closed accounts.
/// The browser engine's choice is kept with a game's metadata, so it
/// outlives a restart (docs/WEB.md, "Which engine answers").
async fn browser_engine(store: &Arc<dyn Store>) {
    let mut game = meta();
    game.mode = Mode::Computer;
    let id = game.id.clone();
    write(
        store,
        WriteOp::Create {
            meta: game,
            plies: vec![],
            due: Due::default(),
        },
    )
    .await
    .unwrap();
    let load = |id: String| async move {
        blocking(store, move |s| s.load(&id))
            .await
            .unwrap()
            .unwrap()
    };
    let stored = load(id.clone()).await;
    assert!(
        !stored.meta.browser_engine,
        "the server's engine by default"
    );
    let mut chosen = stored.meta.clone();
    chosen.browser_engine = true;
    write(
        store,
        WriteOp::All(vec![version(&id, 0, Due::default()), WriteOp::Meta(chosen)]),
    )
    .await
    .unwrap();
    assert!(load(id.clone()).await.meta.browser_engine);
}

async fn community(store: &Arc<dyn Store>) {
    use oware_server::store::account_rows::{ReportFilter, ReportRow};
    let now = now_ms();
    for (id, name) in [("c1", "Yaw"), ("c2", "Efua")] {
        let row = AccountRow {
            id: id.to_string(),
            username: name.to_string(),
            password_hash: "x".to_string(),
            created_at: now,
        };
        write(store, WriteOp::Account(AccountOp::Create(row)))
            .await
            .unwrap();
    }
    let op = |op: AccountOp| WriteOp::Account(op);
    write(
        store,
        op(AccountOp::Follow {
            follower: "c1".into(),
            followed: "c2".into(),
            on: true,
            at: now,
        }),
    )
    .await
    .unwrap();
    let r = blocking(store, |s| s.relations("c1")).await.unwrap();
    assert_eq!((r.following, r.blocked), (vec!["Efua".to_string()], vec![]));
    // A block is only a block here (the route ends the follows, both
    // ways, in the same transaction: tests/strangers, finding 9); it holds
    // both ways.
    write(
        store,
        op(AccountOp::Block {
            blocker: "c1".into(),
            blocked: "c2".into(),
            on: true,
            at: now,
        }),
    )
    .await
    .unwrap();
    let r = blocking(store, |s| s.relations("c1")).await.unwrap();
    assert_eq!(
        (r.following, r.blocked),
        (vec!["Efua".to_string()], vec!["Efua".to_string()])
    );
    write(
        store,
        op(AccountOp::Follow {
            follower: "c1".into(),
            followed: "c2".into(),
            on: false,
            at: now,
        }),
    )
    .await
    .unwrap();
    let both = blocking(store, |s| {
        Ok::<_, StoreError>((
            s.blocked_between("c2", "c1")?,
            s.blocked_between("c1", "a1")?,
        ))
    })
    .await
    .unwrap();
    assert_eq!(both, (true, false));
    let report = ReportRow {
        id: "r1".into(),
        reporter: "c2".into(),
        reported: "c1".into(),
        reported_name: "Yaw".into(),
        game_id: None,
        reason: "abuse".into(),
        details: "rude".into(),
        at: now,
        closed_at: None,
        resolution: None,
        reporter_name: None,
        reported_closed: false,
    };
    write(store, op(AccountOp::Report(report))).await.unwrap();
    write(
        store,
        op(AccountOp::Close {
            id: "c1".into(),
            reason: "abuse".into(),
            at: now,
        }),
    )
    .await
    .unwrap();
    let (open, by, closed) = blocking(store, move |s| {
        Ok::<_, StoreError>((
            s.reports(ReportFilter::Open)?,
            s.reports_by("c2", now - 1)?,
            s.account_closed("c1")?,
        ))
    })
    .await
    .unwrap();
    assert_eq!((open.len(), by, closed), (1, 1, true));
    assert_eq!(open[0].reporter_name.as_deref(), Some("Efua"));
    assert!(open[0].reported_closed);
    write(
        store,
        op(AccountOp::CloseReport {
            id: "r1".into(),
            resolution: "closed the account".into(),
            at: now,
        }),
    )
    .await
    .unwrap();
    let (open, all) = blocking(store, |s| {
        Ok::<_, StoreError>((
            s.reports(ReportFilter::Open)?,
            s.reports(ReportFilter::All)?,
        ))
    })
    .await
    .unwrap();
    assert_eq!((open.len(), all.len()), (0, 1));
    assert_eq!(all[0].resolution.as_deref(), Some("closed the account"));
    let (by_c2, by_c1) = blocking(store, |s| {
        Ok::<_, StoreError>((
            s.reports(ReportFilter::FiledBy("c2".into()))?,
            s.reports(ReportFilter::FiledBy("c1".into()))?,
        ))
    })
    .await
    .unwrap();
    assert_eq!((by_c2.len(), by_c1.len()), (1, 0));
    // A deleted account leaves no follows or blocks behind.
    write(
        store,
        op(AccountOp::Delete {
            id: "c2".into(),
            at: now_ms(),
        }),
    )
    .await
    .unwrap();
    let r = blocking(store, |s| s.relations("c1")).await.unwrap();
    assert!(r.blocked.is_empty());
}

/// Puzzle attempts: the first of an account at a puzzle rates both, a
/// second changes nothing; a puzzle without a stored rating starts from
/// its own.
async fn puzzles(store: &Arc<dyn Store>) {
    use oware_server::store::puzzles::PuzzleAttempt;
    let who = "p1".to_string();
    let row = AccountRow {
        id: who.clone(),
        username: "Solver".to_string(),
        password_hash: "x".to_string(),
        created_at: now_ms(),
    };
    write(store, WriteOp::Account(AccountOp::Create(row)))
        .await
        .unwrap();
    let attempt = |puzzle, solved| {
        WriteOp::PuzzleAttempt(PuzzleAttempt {
            puzzle,
            account_id: "p1".into(),
            solved,
            rated: true,
            start: 1200.0,
            at: now_ms(),
        })
    };
    write(store, attempt(7, true)).await.unwrap();
    let me = blocking(store, |s| s.puzzle_player("p1")).await.unwrap();
    assert_eq!(me.tried, [7]);
    assert_eq!((me.solved, me.rating.games), (1, 1));
    assert!(me.rating.rating > 1500.0, "{me:?}");
    let ratings = blocking(store, |s| s.puzzle_ratings()).await.unwrap();
    assert_eq!(ratings.len(), 1);
    let (id, r) = ratings[0];
    assert_eq!((id, r.games), (7, 1));
    assert!(r.rating < 1200.0, "{r:?}");
    // Again, failed this time: not rated.
    write(store, attempt(7, false)).await.unwrap();
    let again = blocking(store, |s| s.puzzle_player("p1")).await.unwrap();
    assert_eq!(again, me);
    // Another puzzle, failed.
    write(store, attempt(9, false)).await.unwrap();
    let me = blocking(store, |s| s.puzzle_player("p1")).await.unwrap();
    assert_eq!((me.tried.len(), me.solved, me.rating.games), (2, 1, 2));
    // A first attempt not to be rated (its client had seen the solution):
    // tried, and no rating moves.
    let mut unrated = attempt(11, true);
    if let WriteOp::PuzzleAttempt(a) = &mut unrated {
        a.rated = false;
    }
    write(store, unrated).await.unwrap();
    let after = blocking(store, |s| s.puzzle_player("p1")).await.unwrap();
    assert_eq!(after.tried.len(), 3);
    assert_eq!(after.rating, me.rating);
    let ratings = blocking(store, |s| s.puzzle_ratings()).await.unwrap();
    assert!(ratings.iter().all(|(id, _)| *id != 11), "{ratings:?}");
    // Nobody's rating: the starting one, nothing tried.
    let nobody = blocking(store, |s| s.puzzle_player("nobody"))
        .await
        .unwrap();
    assert_eq!((nobody.rating.rating, nobody.tried.len()), (1500.0, 0));
    // A deleted account takes its puzzle rating and attempts with it.
    write(
        store,
        WriteOp::Account(AccountOp::Delete {
            id: who,
            at: now_ms(),
        }),
    )
    .await
    .unwrap();
    let gone = blocking(store, |s| s.puzzle_player("p1")).await.unwrap();
    assert_eq!((gone.rating.games, gone.tried.len()), (0, 0));
}

/// Seeks: listed in the lobby; one whose creator is seen stays, one not
/// seen goes stale. Every listing counts what it lists.
async fn lobby(store: &Arc<dyn Store>) {
    let now = now_ms();
    let seek = || {
        let mut m = meta();
        m.seats[1].token_hash = None;
        m.created_at = now - 10_000;
        m
    };
    let (seen, unseen) = (seek(), seek());
    let ids = [seen.id.clone(), unseen.id.clone()];
    for meta in [seen, unseen] {
        let create = WriteOp::Create {
            meta,
            plies: vec![],
            due: Due::default(),
        };
        write(store, create).await.unwrap();
    }
    let (lobby, total) = blocking(store, |s| s.list(Listing::Lobby, 100, 0))
        .await
        .unwrap();
    assert_eq!(total, lobby.len() as u64);
    for id in &ids {
        assert!(lobby.iter().any(|g| &g.meta.id == id), "{id} not listed");
    }
    let seen = WriteOp::Seen {
        ids: vec![ids[0].clone()],
        at: now,
    };
    write(store, seen).await.unwrap();
    let stale = blocking(store, move |s| {
        s.stale_seeks(now - 5_000, now - 60_000, 100)
    })
    .await
    .unwrap();
    assert!(
        stale.contains(&ids[1]) && !stale.contains(&ids[0]),
        "{stale:?}"
    );
    for which in [
        Listing::Public,
        Listing::Playing {
            since: now - 60_000,
        },
        Listing::Playing {
            since: now + 60_000,
        },
    ] {
        let (games, total) = blocking(store, move |s| s.list(which, 1_000, 0))
            .await
            .unwrap();
        assert_eq!(total, games.len() as u64, "{which:?}");
    }
    let (page, total) = blocking(store, |s| s.list(Listing::Lobby, 1, 1))
        .await
        .unwrap();
    assert_eq!((page.len(), total), (1, lobby.len() as u64));
    assert_eq!(page[0].meta.id, lobby[1].meta.id);
}

/// Tournaments: the creators' caps, entrants numbered as they join (and
/// again as they come back), the latest sighting kept, versions checked,
/// and a deleted account's place anonymised.
async fn tournaments(store: &Arc<dyn Store>) {
    use oware_server::model::TimeControl;
    use oware_server::store::tournaments::TournamentRow;
    use oware_server::store::tournaments::{EntrantState, Kind, Status, TournamentOp};
    use oware_server::store::Cap;
    let now = now_ms();
    let row = |id: &str| TournamentRow {
        id: id.to_string(),
        kind: Kind::Arena,
        name: "Harmattan".to_string(),
        creator: Some("t-maker".to_string()),
        time_control: TimeControl::Clock {
            initial_ms: 60_000,
            increment_ms: 0,
        },
        rated: false,
        status: Status::Created,
        starts_at: now,
        ends_at: Some(now + 3_600_000),
        rounds: 0,
        round: 0,
        next_at: None,
        version: 0,
        created_at: now,
        schedule_key: None,
    };
    let t = |op| WriteOp::Tournament(op);
    let create = |id: &str| {
        WriteOp::All(vec![
            t(TournamentOp::Caps {
                creator: "t-maker".into(),
                per_creator: 1,
                open: 100,
            }),
            t(TournamentOp::Create(row(id))),
        ])
    };
    write(store, create("t-one")).await.unwrap();
    let full = write(store, create("t-two")).await.unwrap_err();
    assert!(
        matches!(
            full,
            StoreError::Full {
                what: Cap::TournamentsOfCreator,
                cap: 1
            }
        ),
        "{full}"
    );
    let join = |who: &str, at: i64| {
        t(TournamentOp::Join {
            tournament_id: "t-one".into(),
            account_id: who.into(),
            username: who.to_uppercase(),
            rating: 1500,
            at,
        })
    };
    write(store, join("t-x", now)).await.unwrap();
    write(store, join("t-y", now)).await.unwrap();
    let leave = t(TournamentOp::State {
        tournament_id: "t-one".into(),
        account_id: "t-x".into(),
        state: EntrantState::Left,
    });
    write(store, leave).await.unwrap();
    write(store, join("t-x", now + 1_000)).await.unwrap();
    let seen = |who: &[&str], at: i64| {
        t(TournamentOp::Seen {
            tournament_id: "t-one".into(),
            account_ids: who.iter().map(|w| w.to_string()).collect(),
            at,
        })
    };
    write(store, seen(&["t-x", "t-y"], now + 5_000))
        .await
        .unwrap();
    write(store, seen(&["t-y"], now + 2_000)).await.unwrap();
    let stale = t(TournamentOp::Update {
        row: row("t-one"),
        expected: 3,
    });
    assert!(write(store, stale).await.unwrap_err().is_stale());
    let start = TournamentOp::Update {
        row: TournamentRow {
            status: Status::Running,
            ..row("t-one")
        },
        expected: 0,
    };
    write(store, t(start)).await.unwrap();
    write(
        store,
        WriteOp::Account(AccountOp::Delete {
            id: "t-y".into(),
            at: now,
        }),
    )
    .await
    .unwrap();
    let got = blocking(store, |s| s.tournament("t-one"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((got.row.version, got.row.status), (1, Status::Running));
    let entrants: Vec<_> = got
        .entrants
        .iter()
        .map(|e| (e.idx, e.username.as_str(), e.state, e.seen_at))
        .collect();
    assert_eq!(
        entrants,
        [
            (0, "T-X", EntrantState::Active, now + 5_000),
            (1, "Deleted player", EntrantState::Left, now + 5_000),
        ]
    );
    let of = blocking(store, |s| s.tournaments_of("t-x")).await.unwrap();
    assert_eq!(of, ["t-one"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> =
        Arc::new(SqliteStore::open(&dir.path().join("games.sqlite3")).unwrap());
    assert!(!store.shared() && store.subscribe().is_none());
    contract(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgresql_keeps_the_contract_and_notifies_on_commit_only() {
    let Some(cluster) = crate::common::pg::Cluster::start() else {
        return;
    };
    let url = cluster.database("contract");
    let store: Arc<dyn Store> = Arc::new(PgStore::connect(&url, 4).await.unwrap());
    assert!(store.shared());
    let mut notices = store.subscribe().unwrap();
    // Subscribed: the listener says so before anything else.
    let first = tokio::time::timeout(Duration::from_secs(10), notices.recv())
        .await
        .unwrap();
    assert_eq!(first, Some(Notice::Resync));
    contract(store.clone()).await;

    // A notice goes out with its change, and not when the change is refused.
    let game = meta();
    let id = game.id.clone();
    write(
        &store,
        WriteOp::Create {
            meta: game,
            plies: vec![],
            due: Due::default(),
        },
    )
    .await
    .unwrap();
    // A plain move (version, ply, notice: one statement on PostgreSQL).
    let plain = |expected: u64, mv: &str, notice: &str| {
        WriteOp::All(vec![
            version(&id, expected, Due::default()),
            WriteOp::Ply {
                id: id.clone(),
                meta: None,
                index: 0,
                ply: ply(mv),
            },
            WriteOp::Notify(notice.into()),
        ])
    };
    let refused = write(&store, plain(7, "A", "lost")).await;
    assert!(refused.unwrap_err().is_stale());
    // Two moves at one ply, likely in one group: one stands, one is stale.
    let (a, b) = tokio::join!(
        write(&store, plain(0, "A", "kept")),
        write(&store, plain(0, "F", "kept")),
    );
    assert_eq!(
        [&a, &b].iter().filter(|r| r.is_ok()).count(),
        1,
        "{a:?} {b:?}"
    );
    assert!([a, b].into_iter().any(|r| r.is_err_and(|e| e.is_stale())));
    let got = tokio::time::timeout(Duration::from_secs(10), notices.recv())
        .await
        .unwrap();
    assert_eq!(got, Some(Notice::Message("kept".into())));

    // A second store on the same database (another node) is migrated
    // already and sees the same games.
    let other: Arc<dyn Store> = Arc::new(PgStore::connect(&url, 2).await.unwrap());
    let key = id.clone();
    let seen = blocking(&other, move |s| s.load(&key))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(seen.version, 1);
    drop(cluster);
}
