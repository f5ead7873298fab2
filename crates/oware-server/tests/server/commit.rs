//! The one commit path: a change that cannot be stored leaves the game as
//! it was and announces nothing, whatever the change (a move, a declined
//! offer, a rematch, a resignation).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use oware_core::Side;
use oware_server::accounts::ratings::{Rating, RatingClass};
use oware_server::accounts::{AccountRow, HistoryPoint, RatingRow, SessionRow};
use oware_server::hub::{Command, NewGame};
use oware_server::model::{GameStatus, Mode, OfferAction};
use oware_server::store::{
    AccountStore, ChatStore, GameStore, Lease, Listing, PuzzleStore, SqliteStore, Store,
    StoreError, StoredGame, WriteOp, WriteStats,
};
use oware_server::{Config, Hub};
use tokio::sync::oneshot;

/// A store whose writes fail while `failing` is set, after letting `pass`
/// more writes through.
struct Flaky {
    inner: SqliteStore,
    failing: AtomicBool,
    pass: AtomicUsize,
}

impl Flaky {
    fn fail_after(&self, pass: usize) {
        self.pass.store(pass, Ordering::SeqCst);
        self.failing.store(true, Ordering::SeqCst);
    }
    fn heal(&self) {
        self.failing.store(false, Ordering::SeqCst);
    }
}

impl GameStore for Flaky {
    fn write(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        let passes = self
            .pass
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if self.failing.load(Ordering::SeqCst) && !passes {
            let (tx, rx) = oneshot::channel();
            let _ = tx.send(Err(StoreError::Commit("disk full (test)".into())));
            return rx;
        }
        self.inner.write(op)
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.inner.load(id)
    }

    fn list(
        &self,
        which: Listing,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<StoredGame>, u64), StoreError> {
        self.inner.list(which, limit, offset)
    }

    fn stats(&self) -> WriteStats {
        self.inner.stats()
    }

    fn claim_due(&self, now: i64, lease: Lease, limit: u32) -> Result<Vec<String>, StoreError> {
        self.inner.claim_due(now, lease, limit)
    }

    fn stale_seeks(&self, seen: i64, created: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        self.inner.stale_seeks(seen, created, limit)
    }

    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        self.inner.version(id)
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.inner.ping()
    }
}

impl AccountStore for Flaky {
    fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        self.inner.account_by_name(name)
    }

    fn session(&self, token_hash: &[u8]) -> Result<Option<(SessionRow, AccountRow)>, StoreError> {
        self.inner.session(token_hash)
    }

    fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.inner.ratings(account_id)
    }

    fn rating_history(&self, account_id: &str) -> Result<Vec<HistoryPoint>, StoreError> {
        self.inner.rating_history(account_id)
    }

    fn leaderboard(
        &self,
        class: RatingClass,
        limit: u32,
        provisional: bool,
    ) -> Result<Vec<(String, Rating)>, StoreError> {
        self.inner.leaderboard(class, limit, provisional)
    }

    fn account_games(&self, account_id: &str, limit: u32) -> Result<Vec<StoredGame>, StoreError> {
        self.inner.account_games(account_id, limit)
    }

    fn relations(
        &self,
        account_id: &str,
    ) -> Result<oware_server::store::account_rows::Relations, StoreError> {
        self.inner.relations(account_id)
    }

    fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        self.inner.blocked_between(a, b)
    }

    fn reports(
        &self,
        filter: oware_server::store::account_rows::ReportFilter,
    ) -> Result<Vec<oware_server::store::account_rows::ReportRow>, StoreError> {
        self.inner.reports(filter)
    }

    fn reports_by(&self, reporter: &str, since: i64) -> Result<u32, StoreError> {
        self.inner.reports_by(reporter, since)
    }

    fn account_closed(&self, account_id: &str) -> Result<bool, StoreError> {
        self.inner.account_closed(account_id)
    }
}

impl ChatStore for Flaky {
    fn chat(
        &self,
        game_id: &str,
        spectators: bool,
        page: oware_server::store::ChatPage,
    ) -> Result<Vec<oware_server::hub::chat::ChatMessage>, StoreError> {
        self.inner.chat(game_id, spectators, page)
    }

    fn chat_count(
        &self,
        game_id: &str,
        room: oware_server::hub::chat::Room,
    ) -> Result<u64, StoreError> {
        self.inner.chat_count(game_id, room)
    }
}

impl PuzzleStore for Flaky {
    fn puzzle_ratings(&self) -> Result<Vec<(u32, Rating)>, StoreError> {
        self.inner.puzzle_ratings()
    }
    fn puzzle_player(
        &self,
        account_id: &str,
    ) -> Result<oware_server::store::puzzles::PuzzlePlayer, StoreError> {
        self.inner.puzzle_player(account_id)
    }
}

impl oware_server::store::tournaments::TournamentStore for Flaky {
    fn tournament(
        &self,
        id: &str,
    ) -> Result<Option<oware_server::store::tournaments::Tournament>, StoreError> {
        self.inner.tournament(id)
    }
    fn tournaments(
        &self,
        finished: u32,
    ) -> Result<Vec<oware_server::store::tournaments::TournamentSummary>, StoreError> {
        self.inner.tournaments(finished)
    }
    fn claim_tournaments(
        &self,
        now: i64,
        soon: i64,
        lease: Lease,
        limit: u32,
    ) -> Result<Vec<String>, StoreError> {
        self.inner.claim_tournaments(now, soon, lease, limit)
    }
    fn release_tournament(&self, id: &str, lease: Lease) -> Result<(), StoreError> {
        self.inner.release_tournament(id, lease)
    }
    fn tournaments_entered(
        &self,
        account_id: &str,
    ) -> Result<Vec<oware_server::store::tournaments::Entered>, StoreError> {
        self.inner.tournaments_entered(account_id)
    }
    fn tournaments_of(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
        self.inner.tournaments_of(account_id)
    }
    fn tournament_blocks(&self, id: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.inner.tournament_blocks(id)
    }
}

impl oware_server::store::notifications::NotificationStore for Flaky {
    fn notifications(
        &self,
        account: &str,
        before: Option<&str>,
        limit: u32,
    ) -> Result<Vec<oware_server::store::notifications::Notification>, StoreError> {
        self.inner.notifications(account, before, limit)
    }
    fn notification(
        &self,
        id: &str,
    ) -> Result<Option<oware_server::store::notifications::Notification>, StoreError> {
        self.inner.notification(id)
    }
    fn unread_notifications(&self, account: &str) -> Result<u32, StoreError> {
        self.inner.unread_notifications(account)
    }
}

impl oware_server::store::challenges::ChallengeStore for Flaky {
    fn challenge(
        &self,
        id: &str,
        now: i64,
    ) -> Result<Option<oware_server::store::challenges::Challenge>, StoreError> {
        self.inner.challenge(id, now)
    }
    fn open_challenges(
        &self,
        account: &str,
        now: i64,
    ) -> Result<Vec<oware_server::store::challenges::Challenge>, StoreError> {
        self.inner.open_challenges(account, now)
    }
}

impl oware_server::store::mail::MailStore for Flaky {
    fn mail_address(
        &self,
        account: &str,
    ) -> Result<Option<oware_server::store::mail::Address>, StoreError> {
        self.inner.mail_address(account)
    }
    fn mail_verified(
        &self,
        key: &str,
    ) -> Result<Vec<(oware_server::store::mail::Address, String)>, StoreError> {
        self.inner.mail_verified(key)
    }
    fn mail_token(
        &self,
        hash: &[u8],
    ) -> Result<Option<oware_server::store::mail::Token>, StoreError> {
        self.inner.mail_token(hash)
    }
    fn claim_mail(
        &self,
        now: i64,
        lease: oware_server::store::Lease,
        limit: u32,
    ) -> Result<Vec<oware_server::store::mail::Outgoing>, StoreError> {
        self.inner.claim_mail(now, lease, limit)
    }
    fn next_mail_due(&self) -> Result<Option<i64>, StoreError> {
        self.inner.next_mail_due()
    }
    fn outbox_counts(&self) -> Result<oware_server::store::mail::OutboxCounts, StoreError> {
        self.inner.outbox_counts()
    }
}

impl Store for Flaky {}

async fn hub() -> (tempfile::TempDir, Arc<Flaky>, Arc<Hub>) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Flaky {
        inner: SqliteStore::open(&dir.path().join("games.sqlite3")).unwrap(),
        failing: AtomicBool::new(false),
        pass: AtomicUsize::new(0),
    });
    let hub = Hub::new(
        store.clone(),
        Config {
            engine_threads: 1,
            ..Config::default()
        },
    );
    (dir, store, hub)
}

fn hotseat() -> NewGame {
    NewGame {
        mode: Mode::Hotseat,
        level: None,
        browser_engine: false,
        side: None,
        name: None,
        time_control: None,
        position: None,
        public: false,
        rated: false,
        rating_range: None,
        accounts_only: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_cannot_be_stored_is_not_played_nor_announced() {
    let (_dir, store, hub) = hub().await;
    let seated = hub.create(hotseat(), None).await.unwrap();
    let south = seated.tokens[&Side::South].clone();
    let mut watcher = hub.watch(&seated.id, None, None).await.unwrap();
    store.fail_after(0);
    let e = hub
        .apply_to(
            &seated.id,
            Some(&south),
            Command::Move {
                mv: "F".parse().unwrap(),
                ply: 0,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(e.code.as_str(), "internal");
    assert!(!e.message.contains("disk full"), "{e:?}");
    let view = hub.view(&seated.id).await.unwrap();
    assert_eq!(view.play.ply, 0);
    assert_eq!(view.play.position, oware_core::Position::start());
    assert!(watcher.events.try_recv().is_err(), "nothing announced");
    store.heal();
    hub.apply_to(
        &seated.id,
        Some(&south),
        Command::Move {
            mv: "F".parse().unwrap(),
            ply: 0,
        },
    )
    .await
    .unwrap();
    assert_eq!(hub.view(&seated.id).await.unwrap().play.ply, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_that_cannot_be_stored_leaves_the_offer() {
    let (_dir, store, hub) = hub().await;
    let seated = hub.create(hotseat(), None).await.unwrap();
    let (south, north) = (
        seated.tokens[&Side::South].clone(),
        seated.tokens[&Side::North].clone(),
    );
    hub.apply_to(
        &seated.id,
        Some(&south),
        Command::Agreement(OfferAction::Offer),
    )
    .await
    .unwrap();
    let mut watcher = hub.watch(&seated.id, None, None).await.unwrap();
    store.fail_after(0);
    assert!(hub
        .apply_to(
            &seated.id,
            Some(&north),
            Command::Agreement(OfferAction::Decline)
        )
        .await
        .is_err());
    assert_eq!(hub.view(&seated.id).await.unwrap().offer, Some(Side::South));
    assert!(watcher.events.try_recv().is_err(), "nothing announced");
    // Nor does a resignation that cannot be stored end the game.
    assert!(hub
        .apply_to(&seated.id, Some(&north), Command::Resign)
        .await
        .is_err());
    let view = hub.view(&seated.id).await.unwrap();
    assert_eq!(view.status, GameStatus::Playing);
    assert!(view.play.result.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_link_that_cannot_be_stored_is_not_kept() {
    let (_dir, store, hub) = hub().await;
    let seated = hub.create(hotseat(), None).await.unwrap();
    let south = seated.tokens[&Side::South].clone();
    // Not during play.
    let e = hub.rematch(&seated.id, Some(&south)).await.unwrap_err();
    assert_eq!(e.code.as_str(), "not_allowed");
    hub.apply_to(&seated.id, Some(&south), Command::Resign)
        .await
        .unwrap();
    // The new game is stored, the link on the old one is not.
    store.fail_after(1);
    assert!(hub.rematch(&seated.id, Some(&south)).await.is_err());
    assert_eq!(hub.view(&seated.id).await.unwrap().rematch, None);
    store.heal();
    let again = hub.rematch(&seated.id, Some(&south)).await.unwrap();
    assert_eq!(
        hub.view(&seated.id).await.unwrap().rematch,
        Some(again.id.clone())
    );
}

/// No database error reaches a client in the database's own words: a
/// change that is not a game's (a new account, through the hub's accounts
/// service) that the store refuses is answered `internal` with the
/// server's words; the store's text stays in the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_raw_database_error_reaches_a_client() {
    let (_dir, store, hub) = hub().await;
    store.fail_after(0);
    let e = hub
        .accounts()
        .create(oware_server::accounts::AccountRow {
            id: "a".into(),
            username: "ama".into(),
            password_hash: "x".into(),
            created_at: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(e.code.as_str(), "internal");
    assert!(!e.message.contains("disk full"), "{e:?}");
    assert_eq!(
        e.message,
        "the change could not be stored; nothing was changed"
    );
}
