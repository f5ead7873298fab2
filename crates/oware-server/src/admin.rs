//! What an operator does from the command line (`oware admin`, in the
//! binary): read the reports players filed, close them, and close
//! accounts. The work is the hub layer's [`Operator`] (on the database
//! directly, with or without a server running on it); this file prints.

pub use crate::hub::operator::{AdminError, Operator};
use crate::model::account::ReportRow;
pub use crate::model::printable;

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
