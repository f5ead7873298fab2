//! Notifications and who is online (docs/PROTOCOL.md, "Notifications").
//!
//! A notification is stored first (`store/notifications.rs` keeps the
//! rules: one unread "your turn" per game, the newest hundred, nothing
//! between players who block one another), read back, and only then sent
//! live to the account's open account sockets: on this node directly, on
//! the others by a [`super::nodes::NodeNotice::Account`] notice. The same
//! sockets say who is online: an account is online while one of its
//! sockets is open on some node (the others are told when that changes,
//! and again every 30 s).

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use oware_core::Side;
use tokio::sync::{broadcast, mpsc};

use super::{Hub, Live, Slot};
use crate::error::ApiError;
use crate::model::{new_id, Seat, SeatKind, TimeControl};
use crate::protocol::incoming::ReadWhich;
use crate::protocol::outgoing::AccountOut;
use crate::store::notifications::{Kind, Notification, NotificationOp};
use crate::store::WriteOp;

/// How long a seat of a live game may be away on its turn before its
/// player is told "your turn".
pub(crate) const AWAY_GRACE: std::time::Duration = std::time::Duration::from_secs(15);

/// The account sockets open on this node, and the accounts other nodes
/// say are online.
#[derive(Default)]
pub(crate) struct Online {
    here: StdMutex<HashMap<String, Link>>,
    /// Accounts online on other nodes: by account, the nodes and when
    /// each last said so.
    remote: StdMutex<HashMap<String, HashMap<u64, Instant>>>,
    /// The queue of "your turn" work, in the order of the plies (its task
    /// started on first use).
    turns: StdMutex<Option<mpsc::UnboundedSender<Turn>>>,
}

/// After a ply: the notification for the player to move, and the mover's
/// account and game whose "your turn" is read.
struct Turn {
    notify: Option<Notification>,
    /// Accounts and games whose "your turn" is read.
    read: Vec<(String, String)>,
}

/// The sender of [`Online::turns`].
struct TurnSender(mpsc::UnboundedSender<Turn>);

impl TurnSender {
    fn send_turn(&self, turn: Turn) {
        // Closed only when the hub is gone.
        let _ = self.0.send(turn);
    }
}

impl Online {
    /// The turns' queue, its task started on first use.
    fn turns_queue(&self, hub: &Arc<Hub>) -> TurnSender {
        let mut q = self.turns.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = q.as_ref().filter(|tx| !tx.is_closed()) {
            return TurnSender(tx.clone());
        }
        let (tx, mut rx) = mpsc::unbounded_channel::<Turn>();
        let weak = Arc::downgrade(hub);
        tokio::spawn(async move {
            while let Some(turn) = rx.recv().await {
                let Some(hub) = weak.upgrade() else { break };
                hub.take_turn(turn).await;
            }
        });
        *q = Some(tx.clone());
        TurnSender(tx)
    }
}

struct Link {
    events: broadcast::Sender<Utf8Bytes>,
    sockets: usize,
}

/// An account socket's hold on its account's events; dropping it counts
/// the socket closed.
pub struct AccountLink {
    hub: Arc<Hub>,
    account: String,
    /// The account's live events.
    pub events: broadcast::Receiver<Utf8Bytes>,
}

impl Drop for AccountLink {
    fn drop(&mut self) {
        let gone = {
            let mut here = self
                .hub
                .online
                .here
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            match here.get_mut(&self.account) {
                Some(link) if link.sockets > 1 => {
                    link.sockets -= 1;
                    false
                }
                Some(_) => {
                    here.remove(&self.account);
                    true
                }
                None => false,
            }
        };
        if gone {
            self.hub
                .publish_online(std::slice::from_ref(&self.account), false);
        }
    }
}

/// The most notifications marked read by id in one request.
pub const READ_IDS: usize = 100;

impl Hub {
    /// Opens an account socket's link: its events, and the account online.
    pub fn link_account(self: &Arc<Self>, account: &str) -> AccountLink {
        let (events, first) = {
            let mut here = self.online.here.lock().unwrap_or_else(|e| e.into_inner());
            let link = here.entry(account.to_string()).or_insert_with(|| Link {
                events: broadcast::channel(16).0,
                sockets: 0,
            });
            link.sockets += 1;
            (link.events.subscribe(), link.sockets == 1)
        };
        if first {
            self.publish_online(&[account.to_string()], true);
        }
        AccountLink {
            hub: self.clone(),
            account: account.to_string(),
            events,
        }
    }

    /// Whether an account has a socket open here or, as last told within
    /// [`super::nodes::PRESENCE_TTL`], on another node.
    pub fn online(&self, account: &str) -> bool {
        if self
            .online
            .here
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(account)
        {
            return true;
        }
        self.online
            .remote
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(account)
            .is_some_and(|nodes| {
                nodes
                    .values()
                    .any(|at| at.elapsed() < super::nodes::PRESENCE_TTL)
            })
    }

    /// How many accounts are online, on every node.
    pub fn online_count(&self) -> usize {
        let here = self.online.here.lock().unwrap_or_else(|e| e.into_inner());
        let remote = self.online.remote.lock().unwrap_or_else(|e| e.into_inner());
        let elsewhere = remote
            .iter()
            .filter(|(account, nodes)| {
                !here.contains_key(*account)
                    && nodes
                        .values()
                        .any(|at| at.elapsed() < super::nodes::PRESENCE_TTL)
            })
            .count();
        here.len() + elsewhere
    }

    /// The accounts with a socket open here.
    pub(crate) fn online_here(&self) -> Vec<String> {
        self.online
            .here
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect()
    }

    /// Another node says these accounts are (or are no longer) online there.
    pub(crate) fn remote_online(&self, node: u64, accounts: Vec<String>, on: bool, heard: Instant) {
        let mut remote = self.online.remote.lock().unwrap_or_else(|e| e.into_inner());
        for account in accounts {
            if on {
                remote.entry(account).or_default().insert(node, heard);
            } else if let Some(nodes) = remote.get_mut(&account) {
                nodes.remove(&node);
                if nodes.is_empty() {
                    remote.remove(&account);
                }
            }
        }
    }

    /// Sends an account's sockets on this node an event.
    pub(crate) fn deliver_here(&self, account: &str, event: Utf8Bytes) {
        if let Some(link) = self
            .online
            .here
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(account)
        {
            // No receiver is fine: the socket is closing.
            let _ = link.events.send(event);
        }
    }

    /// Sends an account's sockets on every node an event.
    pub(crate) fn deliver(&self, account: &str, event: Utf8Bytes) {
        if self.store.shared() {
            self.publish_account(account, &event);
        }
        self.deliver_here(account, event);
    }

    /// Tells the player in seat `to` of `live` (a person, signed in) of
    /// `kind` about game `game`, from the other seat: stored and sent off
    /// the caller's path (the game's lock is not held for it).
    pub(crate) fn tell_seat(
        self: &Arc<Self>,
        live: &Live,
        to: oware_core::Side,
        kind: Kind,
        game: &str,
        detail: Option<&str>,
    ) {
        let seats = &live.meta.seats;
        let (seat, other) = (&seats[to.index()], &seats[to.opponent().index()]);
        let Some(account) = seat
            .account
            .as_deref()
            .filter(|_| seat.kind == SeatKind::Human)
        else {
            return;
        };
        let mut n = self.notifications().draft(account, kind);
        n.game = Some(game.to_string());
        n.from = Some(other.name.clone());
        n.from_account = other.account.clone();
        n.tournament = live.meta.tournament.clone();
        n.detail = detail.map(str::to_string);
        let hub = self.clone();
        tokio::spawn(async move {
            if let Err(e) = hub.notifications().notify(n).await {
                tracing::warn!("a {} notification was not stored: {e:?}", kind.as_str());
            }
        });
    }

    /// After a ply stored in a game between people: the player to move, if
    /// signed in, is told "your turn" (at most one unread per game: the
    /// store's rule) and the mover's is read. In correspondence always; in
    /// a live game only when the player to move has no connection open to
    /// it (on any node) and then with `detail: "live"` (no mail), and the
    /// mover's is read only if this node told it. Done by one task per
    /// node, in the order the plies were stored (a conditional reply's ply
    /// right after the move it answers must not be told before it); the
    /// move does not wait for it.
    pub(crate) fn after_ply(self: &Arc<Self>, slot: &Slot, live: &Live) {
        let correspondence = matches!(
            live.meta.time_control,
            Some(TimeControl::Correspondence { .. })
        );
        if live.game.plies().is_empty() {
            return;
        }
        let seats = &live.meta.seats;
        // Only people's accounts are told: games with the computer or
        // between guests cost nothing here.
        if seats.iter().any(|s| s.kind != SeatKind::Human)
            || seats.iter().all(|s| s.account.is_none())
        {
            return;
        }
        let to_move = live.to_move();
        let mover_side = to_move.opponent();
        let mover = &seats[mover_side.index()];
        let waiting = &seats[to_move.index()];
        let over = live.game.is_over();
        let mut n = None;
        if let (false, Some(account)) = (over, &waiting.account) {
            if correspondence || !slot.connected()[to_move.index()] {
                n = Some(self.turn_note(live, account, mover, correspondence));
                if !correspondence {
                    slot.told[to_move.index()].store(true, Ordering::Relaxed);
                }
            }
        }
        let mut read = Vec::new();
        for (side, seat) in [(mover_side, mover), (to_move, waiting)] {
            // The mover's own "your turn" is done with; at the end of a
            // live game, both (this node's, if it told them).
            let done = side == mover_side || (over && !correspondence);
            let Some(account) = seat.account.as_ref().filter(|_| done) else {
                continue;
            };
            if correspondence || slot.told[side.index()].swap(false, Ordering::Relaxed) {
                read.push((account.clone(), live.meta.id.clone()));
            }
        }
        if n.is_some() || !read.is_empty() {
            self.online
                .turns_queue(self)
                .send_turn(Turn { notify: n, read });
        }
    }

    /// "Your turn" in `live` for `account`, from `mover`.
    fn turn_note(
        &self,
        live: &Live,
        account: &str,
        mover: &Seat,
        correspondence: bool,
    ) -> Notification {
        let mut note = self.notifications().draft(account, Kind::YourTurn);
        note.game = Some(live.meta.id.clone());
        note.from = Some(mover.name.clone());
        note.from_account = mover.account.clone();
        if !correspondence {
            note.detail = Some("live".into());
        }
        note
    }

    /// A seat's last connection to `live` closed (on every node): in a
    /// live game between people waiting for that seat's move, its player
    /// is told "your turn" if still away [`AWAY_GRACE`] later (a reload is
    /// not leaving), once until they move or come back.
    pub(crate) fn seat_left(self: &Arc<Self>, slot: &Arc<Slot>, live: &Live, side: Side) {
        if self.away_note(slot, live, side).is_none() {
            return;
        }
        let leave = slot.leaves[side.index()].fetch_add(1, Ordering::Relaxed) + 1;
        let due = self.time().now() + AWAY_GRACE;
        let hub = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            hub.time().sleep_until(due).await;
            let live = slot.state.lock().await;
            if slot.leaves[side.index()].load(Ordering::Relaxed) != leave {
                return;
            }
            let Some(n) = hub.away_note(&slot, &live, side) else {
                return;
            };
            if slot.told[side.index()].swap(true, Ordering::Relaxed) {
                return;
            }
            hub.online.turns_queue(&hub).send_turn(Turn {
                notify: Some(n),
                read: Vec::new(),
            });
        });
    }

    /// The "your turn" for `side` of `live` if it is a live game between
    /// people, not over, waiting for that seat, which is signed in and has
    /// no connection open to it.
    fn away_note(&self, slot: &Slot, live: &Live, side: Side) -> Option<Notification> {
        let correspondence = matches!(
            live.meta.time_control,
            Some(TimeControl::Correspondence { .. })
        );
        let seats = &live.meta.seats;
        if correspondence
            || live.game.is_over()
            || live.to_move() != side
            || seats.iter().any(|s| s.kind != SeatKind::Human)
            || slot.connected()[side.index()]
        {
            return None;
        }
        let account = seats[side.index()].account.as_ref()?;
        let mover = &seats[side.opponent().index()];
        Some(self.turn_note(live, account, mover, false))
    }

    /// A seat came back to a live game this node told it about: its "your
    /// turn" for the game is read.
    pub(crate) fn seat_back(self: &Arc<Self>, slot: &Slot, live: &Live, side: Side) {
        if !slot.told[side.index()].swap(false, Ordering::Relaxed) {
            return;
        }
        if let Some(account) = &live.meta.seats[side.index()].account {
            self.online.turns_queue(self).send_turn(Turn {
                notify: None,
                read: vec![(account.clone(), live.meta.id.clone())],
            });
        }
    }

    /// One ply's notifications: the player to move told first, then the
    /// mover's "your turn" read (once the mover's count comes, the other's
    /// notification is stored and sent: tests wait for that).
    async fn take_turn(&self, turn: Turn) {
        if let Some(n) = turn.notify {
            if let Err(e) = self.notifications().notify(n).await {
                tracing::warn!("a your-turn notification was not stored: {e:?}");
            }
        }
        for (account, game) in turn.read {
            let op = NotificationOp::ReadGame {
                account: account.clone(),
                game,
            };
            if self.write(WriteOp::Notification(op)).await.is_ok() {
                if let Ok(unread) = self.notifications().unread(&account).await {
                    self.deliver(&account, AccountOut::Unread { unread }.to_text());
                }
            }
        }
    }
}

/// The notifications service: an account's notifications stored, read and
/// marked read (`hub.notifications()`).
pub struct Notifications<'h>(&'h Hub);

impl Hub {
    /// The notifications service.
    pub fn notifications(&self) -> Notifications<'_> {
        Notifications(self)
    }
}

impl Notifications<'_> {
    /// Stores a notification and, once stored (the store may refuse it
    /// quietly: a block, an unread one for the same game), tells the
    /// account live. Returns whether it was stored.
    pub async fn notify(&self, n: Notification) -> Result<bool, ApiError> {
        let id = n.id.clone();
        let account = n.account.clone();
        self.0
            .write(WriteOp::Notification(NotificationOp::Add(n)))
            .await?;
        let Some(stored) = self.0.read(move |store| store.notification(&id)).await? else {
            return Ok(false);
        };
        if stored.account != account {
            return Ok(false);
        }
        // The mail is queued (or not) before the account hears of it.
        self.0.mail().notify(&stored).await;
        let unread = self.unread(&account).await?;
        self.0.deliver(
            &account,
            AccountOut::Notification {
                notification: &stored,
                unread,
            }
            .to_text(),
        );
        Ok(true)
    }

    /// A new notification for `account`, at the server's now.
    pub fn draft(&self, account: &str, kind: Kind) -> Notification {
        Notification {
            id: new_id(),
            account: account.to_string(),
            kind,
            at: self.0.now_ms(),
            read: false,
            game: None,
            from: None,
            from_account: None,
            tournament: None,
            detail: None,
            challenge: None,
        }
    }

    /// An account's unread notifications.
    pub async fn unread(&self, account: &str) -> Result<u32, ApiError> {
        let account = account.to_string();
        self.0
            .read(move |store| store.unread_notifications(&account))
            .await
    }

    /// A page of an account's notifications, newest first.
    pub async fn list(
        &self,
        account: &str,
        before: Option<String>,
        limit: u32,
    ) -> Result<Vec<Notification>, ApiError> {
        let account = account.to_string();
        self.0
            .read(move |store| store.notifications(&account, before.as_deref(), limit))
            .await
    }

    /// Marks some or all of an account's notifications read; the account's
    /// sockets get the new unread count. Returns it.
    pub async fn mark_read(&self, account: &str, which: ReadWhich) -> Result<u32, ApiError> {
        let account_id = account.to_string();
        let op = match which {
            ReadWhich::All => NotificationOp::Read {
                account: account_id,
                ids: None,
            },
            ReadWhich::Ids(ids) => NotificationOp::Read {
                account: account_id,
                ids: Some(ids),
            },
            ReadWhich::Game(game) => NotificationOp::ReadGame {
                account: account_id,
                game,
            },
        };
        self.0.write(WriteOp::Notification(op)).await?;
        let unread = self.unread(account).await?;
        self.0
            .deliver(account, AccountOut::Unread { unread }.to_text());
        Ok(unread)
    }
}
