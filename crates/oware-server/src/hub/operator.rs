//! The operator's service (`oware admin`): read the reports players
//! filed, close them, and close accounts. Works on the database directly,
//! with or without a server running on it (SQLite waits for the server's
//! writer; PostgreSQL nodes see the changes at once), so it holds a store
//! and a clock, not a hub.

use std::sync::Arc;

use crate::store::account_rows::{AccountOp, ReportFilter, ReportRow};
use crate::store::{Store, StoreError, WriteOp};
use crate::time::Time;

/// Why an operator's command failed.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// The database could not be opened or read.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// No account has this name.
    #[error("no account is called {0:?}")]
    NoAccount(String),
    /// No open report has this id.
    #[error("no open report has the id {0:?} (`oware admin reports` lists them)")]
    NoReport(String),
}

/// The operator's work on one database, at the time of `time`.
pub struct Operator {
    store: Arc<dyn Store>,
    time: Time,
}

impl Operator {
    /// Opens the database a server would: a PostgreSQL URL, a SQLite file,
    /// or the default SQLite file of `oware serve`.
    pub async fn open(db: Option<&str>, time: Time) -> Result<Operator, AdminError> {
        let store = crate::store::open(db).await?;
        Ok(Operator { store, time })
    }

    async fn read<T: Send + 'static>(
        &self,
        what: &str,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, AdminError> {
        let store = self.store.clone();
        Ok(tokio::task::spawn_blocking(move || f(store.as_ref()))
            .await
            .map_err(|e| StoreError::Commit(format!("{what}: {e}")))??)
    }

    async fn write(&self, op: WriteOp) -> Result<(), AdminError> {
        self.store
            .write(op)
            .await
            .map_err(|_| StoreError::Commit("the writer stopped".into()))??;
        Ok(())
    }

    /// The reports, newest first: the open ones, or all.
    pub async fn reports(&self, all: bool) -> Result<Vec<ReportRow>, AdminError> {
        let filter = if all {
            ReportFilter::All
        } else {
            ReportFilter::Open
        };
        self.read("reading reports", move |store| store.reports(filter))
            .await
    }

    /// Closes an open report with the operator's note.
    pub async fn close_report(&self, id: &str, note: &str) -> Result<(), AdminError> {
        let open = self.reports(false).await?;
        if !open.iter().any(|r| r.id == id) {
            return Err(AdminError::NoReport(id.to_string()));
        }
        self.write(WriteOp::Account(AccountOp::CloseReport {
            id: id.to_string(),
            resolution: note.to_string(),
            at: self.time.unix_ms(),
        }))
        .await
    }

    /// Closes the account called `name`: it can no longer sign in and its
    /// sessions end; its name stays taken and its games stay. It is
    /// withdrawn from every open tournament in the same transaction.
    pub async fn close_account(&self, name: &str, reason: &str) -> Result<(), AdminError> {
        let key = name.to_string();
        let account = self
            .read("reading the account", move |store| {
                store.account_by_name(&key)
            })
            .await?
            .ok_or_else(|| AdminError::NoAccount(name.to_string()))?;
        let id = account.id.clone();
        let open = self
            .read("reading the tournaments", move |store| {
                store.tournaments_of(&id)
            })
            .await?;
        let mut ops = crate::store::tournaments::withdrawals(open, &account.id);
        ops.push(WriteOp::Account(AccountOp::Close {
            id: account.id,
            reason: reason.to_string(),
            at: self.time.unix_ms(),
        }));
        self.write(WriteOp::All(ops)).await
    }
}
