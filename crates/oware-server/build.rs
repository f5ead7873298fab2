//! Rebuilds the server when anything under `web/` changes: the pages are
//! embedded in the binary (`assets.rs`), and the embedding macro names only
//! the files that existed at the last build, so a new file would otherwise
//! be missed until some other change.

fn main() {
    println!("cargo:rerun-if-changed=web");
}
