//! The accounts' service: everything the account routes read and change,
//! with the rules that go with it (a deleted account withdrawn from its
//! tournaments and its games made anonymous first; a new password ending
//! the other sessions; what one's games list and a profile show). The
//! routes parse and answer; only this layer reaches the store.

use std::sync::Arc;

use crate::error::ApiError;
use crate::model::account::{AccountRow, HistoryPoint, RatingRow, SessionRow};
use crate::model::account::{Relations, ReportFilter, ReportRow};
use crate::model::game::StoredGame;
use crate::model::ratings::{Rating, RatingClass};
pub use crate::model::tournament::Entered;
use crate::model::{GameMeta, GameStatus, Mode};
use crate::protocol::incoming::{GameFilter, ResultFilter};
use crate::store::account_rows::AccountOp;
use crate::store::puzzles::PuzzlePlayer;
use crate::store::WriteOp;
use crate::Hub;

/// The most recent games a search of one's games looks through.
pub const SEARCH_DEPTH: u32 = 1000;
/// The most games one answer lists.
pub const MY_GAMES: usize = 200;
/// The games of a profile read to find the finished public ones and the
/// one being played.
const PROFILE_GAMES: u32 = 50;

/// The accounts' service ([`Hub::accounts`]).
pub struct Accounts<'h>(&'h Arc<Hub>);

/// What a profile shows of an account, as read.
pub struct ProfileRows {
    /// The account.
    pub account: AccountRow,
    /// Its rating history.
    pub history: Vec<HistoryPoint>,
    /// Its latest games, each as it stands.
    pub games: Vec<StoredGame>,
}

/// What an export holds besides the games, as read.
pub struct ExportRows {
    /// The account.
    pub account: AccountRow,
    /// Its rating history.
    pub history: Vec<HistoryPoint>,
    /// Its games' ids, newest first.
    pub game_ids: Vec<String>,
    /// Whom it follows and blocks.
    pub relations: Relations,
    /// The reports it filed.
    pub reports: Vec<ReportRow>,
    /// The tournaments it entered.
    pub tournaments: Vec<Entered>,
    /// Its puzzle rating.
    pub puzzles: PuzzlePlayer,
}

impl Hub {
    /// The accounts' service.
    pub fn accounts(self: &Arc<Self>) -> Accounts<'_> {
        Accounts(self)
    }
}

impl Accounts<'_> {
    async fn write(&self, op: WriteOp) -> Result<(), ApiError> {
        self.0
            .write_change(op, || ApiError::username_taken("this username is taken"))
            .await
    }

    /// The account called `name` (any case), if any.
    pub async fn by_name(&self, name: &str) -> Result<Option<AccountRow>, ApiError> {
        let name = name.to_string();
        self.0.read(move |store| store.account_by_name(&name)).await
    }

    /// The account called `name` if it is still `id`'s (a signed-in
    /// player's account deleted since signing in is not found).
    pub async fn own(&self, id: &str, name: &str) -> Result<AccountRow, ApiError> {
        self.by_name(name)
            .await?
            .filter(|a| a.id == id)
            .ok_or_else(|| ApiError::not_signed_in("this account no longer exists"))
    }

    /// Whether an operator closed the account.
    pub async fn closed(&self, id: &str) -> Result<bool, ApiError> {
        let id = id.to_string();
        self.0.read(move |store| store.account_closed(&id)).await
    }

    /// Stores a new account; a name already taken is `username_taken`.
    pub async fn create(&self, account: AccountRow) -> Result<(), ApiError> {
        self.write(WriteOp::Account(AccountOp::Create(account)))
            .await
    }

    /// Stores a new session.
    pub async fn open_session(&self, session: SessionRow) -> Result<(), ApiError> {
        self.write(WriteOp::Account(AccountOp::CreateSession(session)))
            .await
    }

    /// The live or expired session whose token hashes to `hash`, with its
    /// account.
    pub async fn session(
        &self,
        hash: Vec<u8>,
    ) -> Result<Option<(SessionRow, AccountRow)>, ApiError> {
        self.0.read(move |store| store.session(&hash)).await
    }

    /// Ends one session.
    pub async fn end_session(&self, token_hash: Vec<u8>) -> Result<(), ApiError> {
        self.write(WriteOp::Account(AccountOp::EndSession { token_hash }))
            .await
    }

    /// A new password hash; every other session of the account ends with
    /// the old password (the one kept is the one that changed it).
    pub async fn set_password(
        &self,
        id: &str,
        hash: String,
        keep: Option<Vec<u8>>,
    ) -> Result<(), ApiError> {
        self.write(WriteOp::All(vec![
            WriteOp::Account(AccountOp::SetPassword {
                id: id.to_string(),
                hash,
            }),
            WriteOp::Account(AccountOp::EndOtherSessions {
                account_id: id.to_string(),
                keep,
            }),
        ]))
        .await
    }

    /// Deletes an account: withdrawn from every open tournament first (no
    /// round is paired with it any more), its games kept with its seats
    /// made anonymous (a game in play resigned), then the account.
    pub async fn delete(&self, id: &str) -> Result<(), ApiError> {
        let account = id.to_string();
        let open = self
            .0
            .read(move |store| store.tournaments_of(&account))
            .await?;
        if !open.is_empty() {
            let ops = crate::store::tournaments::withdrawals(open, id);
            self.write(WriteOp::All(ops)).await?;
        }
        let account = id.to_string();
        let games = self
            .0
            .read(move |store| store.account_games(&account, u32::MAX))
            .await?;
        for g in games {
            self.0.anonymise(&g.meta.id, id).await?;
        }
        self.write(WriteOp::Account(AccountOp::Delete {
            id: id.to_string(),
            at: self.0.now_ms(),
        }))
        .await
    }

    /// The account's ratings, one per class it played.
    pub async fn ratings(&self, id: &str) -> Result<Vec<RatingRow>, ApiError> {
        let id = id.to_string();
        self.0.read(move |store| store.ratings(&id)).await
    }

    /// The account's puzzle rating and the puzzles it tried.
    pub async fn puzzle_player(&self, id: &str) -> Result<PuzzlePlayer, ApiError> {
        let id = id.to_string();
        self.0.read(move |store| store.puzzle_player(&id)).await
    }

    /// The account's latest games, each as it stands: the [`MY_GAMES`]
    /// latest, or those `filter` asks for among the [`SEARCH_DEPTH`]
    /// latest.
    pub async fn games(
        &self,
        id: &str,
        filter: Option<GameFilter>,
    ) -> Result<Vec<StoredGame>, ApiError> {
        let id = id.to_string();
        match filter {
            None => Ok(crate::hub::current_games(
                self.0
                    .read(move |store| store.account_games(&id, MY_GAMES as u32))
                    .await?,
            )),
            Some(filter) => {
                self.0
                    .read(move |store| {
                        Ok(
                            crate::hub::current_games(store.account_games(&id, SEARCH_DEPTH)?)
                                .into_iter()
                                .filter(|g| matches(&filter, &g.meta, &id))
                                .take(MY_GAMES)
                                .collect::<Vec<_>>(),
                        )
                    })
                    .await
            }
        }
    }

    /// What a profile shows of the account called `name`, if any.
    pub async fn profile(&self, name: &str) -> Result<Option<ProfileRows>, ApiError> {
        let name = name.to_string();
        let found = self
            .0
            .read(move |store| {
                let Some(account) = store.account_by_name(&name)? else {
                    return Ok(None);
                };
                let history = store.rating_history(&account.id)?;
                let games = store.account_games(&account.id, PROFILE_GAMES)?;
                Ok(Some((account, history, games)))
            })
            .await?;
        Ok(found.map(|(account, history, games)| ProfileRows {
            account,
            history,
            games: crate::hub::current_games(games),
        }))
    }

    /// The best players of a class.
    pub async fn leaderboard(
        &self,
        class: RatingClass,
        limit: u32,
        provisional: bool,
    ) -> Result<Vec<(String, Rating)>, ApiError> {
        self.0
            .read(move |store| store.leaderboard(class, limit, provisional))
            .await
    }

    /// Everything an export holds but the games, for the signed-in
    /// account `id` called `name`.
    pub async fn export(&self, id: &str, name: &str) -> Result<ExportRows, ApiError> {
        let account = self.own(id, name).await?;
        let id = account.id.clone();
        let (history, game_ids, relations, reports, tournaments, puzzles) = self
            .0
            .read(move |store| {
                Ok((
                    store.rating_history(&id)?,
                    store.account_game_ids(&id, u32::MAX)?,
                    store.relations(&id)?,
                    store.reports(ReportFilter::FiledBy(id.clone()))?,
                    store.tournaments_entered(&id)?,
                    store.puzzle_player(&id)?,
                ))
            })
            .await?;
        Ok(ExportRows {
            account,
            history,
            game_ids,
            relations,
            reports,
            tournaments,
            puzzles,
        })
    }

    /// A page of an export's games, each as it stands: a read among the
    /// bulk reads (`Hub::read_bulk`), so exports never hold the store's
    /// readers for long nor all of them (issue 33, finding 6).
    pub async fn export_page(&self, ids: Vec<String>) -> Result<Vec<StoredGame>, ApiError> {
        let games = self
            .0
            .read_bulk(move |store| {
                let mut games = Vec::with_capacity(ids.len());
                for id in &ids {
                    games.extend(store.load(id)?);
                }
                Ok(games)
            })
            .await?;
        Ok(crate::hub::current_games(games))
    }
}

/// The account `me`'s seats in a game: one, or both of a hot-seat game.
pub fn seats_of(meta: &GameMeta, me: &str) -> Vec<oware_core::Side> {
    let mine = |s: &oware_core::Side| meta.seats[s.index()].account.as_deref() == Some(me);
    let all = meta.mode == Mode::Hotseat && oware_core::Side::ALL.iter().any(mine);
    oware_core::Side::ALL
        .into_iter()
        .filter(|s| all || mine(s))
        .collect()
}

/// Whether `meta` (one of `me`'s games) is one `f` asks for.
fn matches(f: &GameFilter, meta: &GameMeta, me: &str) -> bool {
    if f.mode.is_some_and(|m| meta.mode != m) {
        return false;
    }
    let mine: Vec<oware_core::Side> = oware_core::Side::ALL
        .into_iter()
        .filter(|s| meta.seats[s.index()].account.as_deref() == Some(me))
        .collect();
    // One seat: an opponent to name, a game to win or lose (hot-seat
    // games, both seats one's own, have neither).
    let me_side = (mine.len() == 1).then(|| mine[0]);
    if let Some(o) = &f.opponent {
        let Some(side) = me_side else { return false };
        if !meta.seats[side.opponent().index()]
            .name
            .to_lowercase()
            .contains(o.as_str())
        {
            return false;
        }
    }
    if let Some(r) = f.result {
        let ok = match (r, meta.result) {
            (ResultFilter::Ongoing, None) => {
                matches!(meta.status(), GameStatus::Waiting | GameStatus::Playing)
            }
            (ResultFilter::Drawn, Some(o)) => o.winner.is_none(),
            (ResultFilter::Won, Some(o)) => me_side.is_some() && o.winner == me_side,
            (ResultFilter::Lost, Some(o)) => {
                me_side.is_some() && o.winner == me_side.map(oware_core::Side::opponent)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    f.from.is_none_or(|from| meta.updated_at >= from) && f.to.is_none_or(|to| meta.updated_at <= to)
}
