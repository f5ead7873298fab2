//! What an operator does from the command line (`oware admin`, in the
//! binary): read the reports players filed, close them, and close
//! accounts. Works on the database directly, with or without a server
//! running on it (SQLite waits for the server's writer; PostgreSQL nodes
//! see the changes at once).

use std::path::PathBuf;
use std::sync::Arc;

pub use crate::model::printable;
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

/// Opens the database a server would: a PostgreSQL URL, a SQLite file, or
/// the default SQLite file of `oware serve`.
pub async fn open(db: Option<&str>) -> Result<Arc<dyn Store>, AdminError> {
    Ok(match db {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Arc::new(crate::store::PgStore::connect(url, 2).await?)
        }
        Some(path) => Arc::new(crate::store::SqliteStore::open(&PathBuf::from(path))?),
        None => {
            let path = crate::default_db_path()
                .map_err(|e| StoreError::Open(format!("no default database: {e}")))?;
            Arc::new(crate::store::SqliteStore::open(&path)?)
        }
    })
}

async fn write(store: &Arc<dyn Store>, op: AccountOp) -> Result<(), AdminError> {
    store
        .write(WriteOp::Account(op))
        .await
        .map_err(|_| StoreError::Commit("the writer stopped".into()))??;
    Ok(())
}

/// The reports, newest first: the open ones, or all.
pub async fn reports(store: &Arc<dyn Store>, all: bool) -> Result<Vec<ReportRow>, AdminError> {
    let store = store.clone();
    let filter = if all {
        ReportFilter::All
    } else {
        ReportFilter::Open
    };
    Ok(tokio::task::spawn_blocking(move || store.reports(filter))
        .await
        .map_err(|e| StoreError::Commit(format!("reading reports: {e}")))??)
}

/// The reports as `oware admin reports` prints them: a line per report,
/// then its details and how it was closed, each on a line of its own.
/// Every text a player wrote goes through [`printable`], so a report
/// cannot drive the operator's terminal or forge a line of this list
/// (`tests/strangers/io.rs`: `finding_7_…`).
pub fn render_reports(reports: &[ReportRow], all: bool) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if reports.is_empty() {
        out.push_str(if all {
            "No reports.\n"
        } else {
            "No open reports.\n"
        });
    }
    for r in reports {
        let when = crate::model::rfc3339(r.at);
        let by = r.reporter_name.as_deref().unwrap_or("(deleted account)");
        let closed = if r.reported_closed {
            " [account closed]"
        } else {
            ""
        };
        let game = r
            .game_id
            .as_deref()
            .map(|g| format!(" (game {})", printable(g)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{}  {}  {} reported {}{} for {}{}",
            printable(&r.id),
            when,
            printable(by),
            printable(&r.reported_name),
            closed,
            printable(&r.reason),
            game
        );
        if !r.details.is_empty() {
            let _ = writeln!(out, "    \"{}\"", printable(&r.details));
        }
        if let (Some(at), Some(note)) = (r.closed_at, r.resolution.as_deref()) {
            let _ = writeln!(
                out,
                "    closed {}: {}",
                crate::model::rfc3339(at),
                printable(note)
            );
        }
    }
    out
}

/// Closes an open report with the operator's note.
pub async fn close_report(
    store: &Arc<dyn Store>,
    time: &Time,
    id: &str,
    note: &str,
) -> Result<(), AdminError> {
    let open = reports(store, false).await?;
    if !open.iter().any(|r| r.id == id) {
        return Err(AdminError::NoReport(id.to_string()));
    }
    write(
        store,
        AccountOp::CloseReport {
            id: id.to_string(),
            resolution: note.to_string(),
            at: time.unix_ms(),
        },
    )
    .await
}

/// Closes the account called `name`: it can no longer sign in and its
/// sessions end; its name stays taken and its games stay.
pub async fn close_account(
    store: &Arc<dyn Store>,
    time: &Time,
    name: &str,
    reason: &str,
) -> Result<(), AdminError> {
    let s = store.clone();
    let key = name.to_string();
    let account = tokio::task::spawn_blocking(move || s.account_by_name(&key))
        .await
        .map_err(|e| StoreError::Commit(format!("reading the account: {e}")))??
        .ok_or_else(|| AdminError::NoAccount(name.to_string()))?;
    // Withdrawn from every open tournament in the same transaction.
    let s = store.clone();
    let id = account.id.clone();
    let open = tokio::task::spawn_blocking(move || s.tournaments_of(&id))
        .await
        .map_err(|e| StoreError::Commit(format!("reading the tournaments: {e}")))??;
    let mut ops = crate::store::tournaments::withdrawals(open, &account.id);
    ops.push(WriteOp::Account(AccountOp::Close {
        id: account.id,
        reason: reason.to_string(),
        at: time.unix_ms(),
    }));
    store
        .write(WriteOp::All(ops))
        .await
        .map_err(|_| StoreError::Commit("the writer stopped".into()))??;
    Ok(())
}
