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
        let operator = oware_server::admin::Operator::open(
            args.db.as_deref(),
            oware_server::time::Time::wall(),
        )
        .await?;
        match args.action {
            Action::Reports { all } => {
                let reports = operator.reports(all).await?;
                print!("{}", oware_server::admin::render_reports(&reports, all));
            }
            Action::CloseReport { id, note } => {
                operator.close_report(&id, &note).await?;
                println!("Report {} closed.", oware_server::admin::printable(&id));
            }
            Action::CloseAccount { name, reason } => {
                operator.close_account(&name, &reason).await?;
                println!(
                    "The account {} is closed: it cannot sign in, and its sessions have ended.",
                    oware_server::admin::printable(&name)
                );
            }
        }
        Ok(())
    })
}
