//! `oware admin`: the operator's tools over a server's database (reports
//! and account closures; docs/DEPLOY.md, "Moderation").

use clap::{Args, Subcommand};

#[derive(Subcommand)]
pub enum Command {
    /// The operator's tools: review players' reports, close them, close accounts.
    #[command(after_help = "Examples:
  oware admin --db games.sqlite3 reports
  oware admin --db games.sqlite3 close-report k3v9q2xw --note \"warned the player\"
  oware admin --db postgres://oware@db/oware close-account Spammer --reason \"abuse in chat\"")]
    Admin(AdminArgs),
}

#[derive(Args)]
pub struct AdminArgs {
    /// The server's database: a SQLite file or a PostgreSQL URL (default:
    /// the file `oware serve` uses by default).
    #[arg(long, global = true)]
    db: Option<String>,
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// List the open reports, newest first (`--all`: the closed ones too).
    Reports {
        /// Closed reports too.
        #[arg(long)]
        all: bool,
    },
    /// Close a report, with a note of what was done.
    CloseReport {
        /// The report's id (first column of `reports`).
        id: String,
        /// What was done.
        #[arg(long)]
        note: String,
    },
    /// Close an account: it can no longer sign in and its sessions end; its
    /// name stays taken and its games stay.
    CloseAccount {
        /// The account's username.
        name: String,
        /// Why (kept in the database).
        #[arg(long)]
        reason: String,
    },
}

pub fn run(command: Command) -> anyhow::Result<()> {
    let Command::Admin(args) = command;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let store = oware_server::admin::open(args.db.as_deref()).await?;
        match args.action {
            Action::Reports { all } => {
                let reports = oware_server::admin::reports(&store, all).await?;
                if reports.is_empty() {
                    println!(
                        "{}",
                        if all {
                            "No reports."
                        } else {
                            "No open reports."
                        }
                    );
                }
                for r in reports {
                    let when = oware_server::model::rfc3339(r.at);
                    let by = r.reporter_name.as_deref().unwrap_or("(deleted account)");
                    let closed = if r.reported_closed {
                        " [account closed]"
                    } else {
                        ""
                    };
                    println!(
                        "{}  {}  {} reported {}{} for {}{}",
                        r.id,
                        when,
                        by,
                        r.reported_name,
                        closed,
                        r.reason,
                        r.game_id
                            .as_deref()
                            .map(|g| format!(" (game {g})"))
                            .unwrap_or_default()
                    );
                    if !r.details.is_empty() {
                        println!("    \"{}\"", r.details);
                    }
                    if let (Some(at), Some(note)) = (r.closed_at, r.resolution.as_deref()) {
                        println!("    closed {}: {note}", oware_server::model::rfc3339(at));
                    }
                }
            }
            Action::CloseReport { id, note } => {
                oware_server::admin::close_report(&store, &id, &note).await?;
                println!("Report {id} closed.");
            }
            Action::CloseAccount { name, reason } => {
                oware_server::admin::close_account(&store, &name, &reason).await?;
                println!(
                    "The account {name} is closed: it cannot sign in, and its sessions have ended."
                );
            }
        }
        Ok(())
    })
}
