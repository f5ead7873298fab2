//! A throw-away PostgreSQL cluster for tests: `initdb` into a temporary
//! folder and a server on a free loopback port, stopped when dropped.
//!
//! Debian's `postgresql` package provides the programs
//! (`scripts/install-test-deps` installs it). As root, the cluster runs as
//! the `postgres` user (PostgreSQL refuses to run as root). Without the
//! programs the tests that need it are skipped with a message, unless
//! `OWARE_TEST_POSTGRES=required` (set by `scripts/test-all`), when they
//! fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    user: Option<String>,
}

fn bin_dir() -> Option<PathBuf> {
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if dir.join("initdb").exists() {
            return Some(dir);
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    /// Starts a cluster, or `None` (with a message) when PostgreSQL is not
    /// installed and not required.
    pub fn start() -> Option<Cluster> {
        let Some(bin) = bin_dir() else {
            if std::env::var("OWARE_TEST_POSTGRES").as_deref() == Ok("required") {
                panic!("PostgreSQL is required (OWARE_TEST_POSTGRES=required) but initdb was not found; run scripts/install-test-deps");
            }
            eprintln!("SKIPPED: PostgreSQL is not installed (apt-get install postgresql)");
            return None;
        };
        let dir = tempfile::Builder::new()
            .prefix("oware-pg")
            .tempdir()
            .unwrap();
        let user = is_root().then(|| "postgres".to_string());
        if user.is_some() {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(status.success(), "chown of the cluster folder failed");
        }
        let cluster = Cluster {
            dir,
            bin,
            port: free_port(),
            user,
        };
        let data = cluster.data();
        cluster.run(
            "initdb",
            &[
                "--no-sync",
                "-A",
                "trust",
                "-U",
                "oware",
                "-E",
                "UTF8",
                "-D",
                data.to_str().unwrap(),
            ],
        );
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            cluster.port,
            cluster.dir.path().display()
        );
        cluster.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-l",
                cluster.dir.path().join("log").to_str().unwrap(),
                "-o",
                &options,
                "-w",
                "-t",
                "60",
                "start",
            ],
        );
        Some(cluster)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn run(&self, program: &str, args: &[&str]) {
        let exe = self.bin.join(program);
        let mut cmd = match &self.user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        // From /: the postgres user may not enter the test's folder.
        let out = cmd
            .args(args)
            .current_dir("/")
            .output()
            .expect("PostgreSQL program runs");
        assert!(
            out.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A new empty database; its URL.
    pub fn database(&self, name: &str) -> String {
        self.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "oware",
                name,
            ],
        );
        format!("postgres://oware@127.0.0.1:{}/{name}", self.port)
    }

    /// The server's log so far (for failure messages).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default()
    }

    /// The cluster's folder.
    pub fn folder(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let started = Instant::now();
        self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
        if started.elapsed() > Duration::from_secs(10) {
            eprintln!(
                "the PostgreSQL cluster took {:?} to stop",
                started.elapsed()
            );
        }
    }
}
