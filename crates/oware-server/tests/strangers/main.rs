//! The attacks of issue 33 ("tournaments and the community, safe against
//! strangers"), each reproduced as a stranger made it: several clients on
//! their own loopback addresses (127.0.x.y), real sockets, bounded in
//! count and time. Each test is named after the finding it holds
//! (`finding_N_…`), and docs/SECURITY.md lists them.

#[path = "../server/common/mod.rs"]
mod common;

mod io;
mod tournaments;
