//! Counters that rate limits keep in the store when several nodes share it
//! ([`SharedLimits`]), so a client's allowance is the same whichever node
//! it reaches (docs/SECURITY.md, "Limits across nodes"). A store that no
//! other node shares has none: the node's own limiters are then the whole
//! limit.

use super::StoreError;

/// A count after `n` more (0 to read it) at `now`, from the count and end
/// of its window if that window is still open: the count and the window's
/// end. A window of `window` ms starts at the first count after the last
/// one ended. The one rule of counted windows, for a node's own counts
/// (`crate::limits`) and for the ones all nodes share.
pub fn add_in_window(live: Option<(u32, i64)>, n: u32, now: i64, window: i64) -> (u32, i64) {
    match live {
        Some((count, until)) => (count.saturating_add(n), until),
        None if n == 0 => (0, now),
        None => (n, now + window),
    }
}

/// Rate-limit state shared by every node.
pub trait SharedLimits: Send + Sync {
    /// One request against the rate `key` allows: one every `interval_ms`
    /// after a burst of `burst` (the generic cell rate algorithm, whose
    /// whole state is the key's theoretical arrival time). `None` when the
    /// request is allowed (and counted), or the milliseconds to wait.
    fn take(
        &self,
        key: &str,
        now_ms: i64,
        interval_ms: i64,
        burst: u32,
    ) -> Result<Option<u64>, StoreError>;
    /// Adds `n` (0 to read) to the count of `key` in its window of
    /// `window_ms` (a window starts at the first count after the last one
    /// ended): the count and the window's end, in milliseconds.
    fn count(
        &self,
        key: &str,
        n: u32,
        now_ms: i64,
        window_ms: i64,
    ) -> Result<(u32, i64), StoreError>;
    /// Forgets the count of `key`.
    fn clear(&self, key: &str) -> Result<(), StoreError>;
    /// Forgets every rate and count that has run out by `now_ms`.
    fn forget_old(&self, now_ms: i64) -> Result<(), StoreError>;
}

/// The tables behind [`SharedLimits`] in PostgreSQL. Unlogged: a crash of
/// the database forgets them, which only gives every client a fresh
/// allowance.
pub(crate) const PG_MIGRATION: &str = "
CREATE UNLOGGED TABLE rate_limits (
    key TEXT PRIMARY KEY,
    tat BIGINT NOT NULL
);
CREATE UNLOGGED TABLE limit_counts (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    until BIGINT NOT NULL
);
";

impl SharedLimits for super::PgStore {
    fn take(
        &self,
        key: &str,
        now_ms: i64,
        interval_ms: i64,
        burst: u32,
    ) -> Result<Option<u64>, StoreError> {
        let tolerance = interval_ms * i64::from(burst.max(1));
        self.block(async {
            let client = self.pool.get().await?;
            // Allowed when the new arrival time is within the burst's
            // tolerance of now; the row is then moved on by one interval.
            let stmt = client
                .prepare_cached(
                    "INSERT INTO rate_limits AS r (key, tat) VALUES ($1::TEXT, $2::BIGINT + $3::BIGINT)
                     ON CONFLICT (key) DO UPDATE SET tat = GREATEST(r.tat, $2::BIGINT) + $3::BIGINT
                     WHERE GREATEST(r.tat, $2::BIGINT) + $3::BIGINT - $2::BIGINT <= $4::BIGINT
                     RETURNING tat",
                )
                .await?;
            if client
                .query_opt(&stmt, &[&key, &now_ms, &interval_ms, &tolerance])
                .await?
                .is_some()
            {
                return Ok(None);
            }
            let tat: Option<i64> = client
                .query_opt("SELECT tat FROM rate_limits WHERE key = $1", &[&key])
                .await?
                .map(|r| r.get(0));
            let wait = tat.map_or(0, |t| t.max(now_ms) + interval_ms - now_ms - tolerance);
            Ok(Some(wait.max(1) as u64))
        })
    }

    fn count(
        &self,
        key: &str,
        n: u32,
        now_ms: i64,
        window_ms: i64,
    ) -> Result<(u32, i64), StoreError> {
        self.block(async {
            let mut client = self.pool.get().await?;
            let live = |row: Option<tokio_postgres::Row>| {
                row.map(|r| (r.get::<_, i32>(0).max(0) as u32, r.get::<_, i64>(1)))
                    .filter(|&(_, until)| until > now_ms)
            };
            let read = "SELECT count, until FROM limit_counts WHERE key = $1";
            if n == 0 {
                let row = client.query_opt(read, &[&key]).await?;
                return Ok(add_in_window(live(row), 0, now_ms, window_ms));
            }
            // The row is made if missing and locked before it is read, so
            // two nodes counting at once add up.
            let tx = client.transaction().await?;
            tx.execute(
                "INSERT INTO limit_counts (key, count, until) VALUES ($1, 0, 0)
                 ON CONFLICT DO NOTHING",
                &[&key],
            )
            .await?;
            let row = tx.query_opt(&format!("{read} FOR UPDATE"), &[&key]).await?;
            let (count, until) = add_in_window(live(row), n, now_ms, window_ms);
            tx.execute(
                "UPDATE limit_counts SET count = $2, until = $3 WHERE key = $1",
                &[&key, &(count.min(i32::MAX as u32) as i32), &until],
            )
            .await?;
            tx.commit().await?;
            Ok((count, until))
        })
    }

    fn clear(&self, key: &str) -> Result<(), StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            client
                .execute("DELETE FROM limit_counts WHERE key = $1", &[&key])
                .await?;
            Ok(())
        })
    }

    fn forget_old(&self, now_ms: i64) -> Result<(), StoreError> {
        self.block(async {
            let client = self.pool.get().await?;
            client
                .execute("DELETE FROM rate_limits WHERE tat <= $1", &[&now_ms])
                .await?;
            client
                .execute("DELETE FROM limit_counts WHERE until <= $1", &[&now_ms])
                .await?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::add_in_window as add;

    #[test]
    fn a_window_starts_at_its_first_count_and_adds_up_until_it_ends() {
        assert_eq!(add(None, 0, 100, 50), (0, 100), "nothing counted");
        assert_eq!(add(None, 2, 100, 50), (2, 150), "a new window");
        assert_eq!(add(Some((2, 150)), 0, 120, 50), (2, 150), "read");
        assert_eq!(add(Some((2, 150)), 3, 120, 50), (5, 150), "same window");
        assert_eq!(add(Some((u32::MAX, 150)), 1, 120, 50), (u32::MAX, 150));
    }
}
