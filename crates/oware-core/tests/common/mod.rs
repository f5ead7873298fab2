//! Test helpers: a deliberately naive reference implementation of the rules
//! (plain arrays, written straight from docs/RULES.md) to cross-check the fast
//! bit-packed core, and the reader for the `.txt` case files.

#![allow(dead_code)]

/// A naive position: houses, stores, side (0 = South).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ref {
    pub h: [u8; 12],
    pub s: [u8; 2],
    pub side: usize,
}

impl Ref {
    pub fn from_core(p: &oware_core::Position) -> Ref {
        let st = p.setup();
        Ref {
            h: st.houses,
            s: st.stores,
            side: st.to_move.index(),
        }
    }

    pub fn position_string(&self) -> String {
        let mut v: Vec<String> = self.h.iter().map(|n| n.to_string()).collect();
        v.push(self.s[0].to_string());
        v.push(self.s[1].to_string());
        v.push(if self.side == 0 {
            "S".into()
        } else {
            "N".into()
        });
        v.join("-")
    }

    fn row(&self, side: usize) -> u32 {
        (6 * side..6 * side + 6).map(|i| self.h[i] as u32).sum()
    }

    /// Sowing and capture of house `i`, feeding aside.
    pub fn sow(&self, i: usize) -> Ref {
        let mut r = *self;
        let mut seeds = r.h[i];
        r.h[i] = 0;
        let mut p = i;
        while seeds > 0 {
            p = (p + 1) % 12;
            if p == i {
                continue;
            }
            r.h[p] += 1;
            seeds -= 1;
        }
        let opp = 1 - r.side;
        let mut taken = Vec::new();
        let mut q = p;
        while q / 6 == opp && (r.h[q] == 2 || r.h[q] == 3) {
            taken.push(q);
            if q.is_multiple_of(6) {
                break;
            }
            q -= 1;
        }
        let taken_seeds: u32 = taken.iter().map(|&q| r.h[q] as u32).sum();
        if taken_seeds > 0 && taken_seeds < r.row(opp) {
            for q in taken {
                r.s[r.side] += r.h[q];
                r.h[q] = 0;
            }
        }
        r.side = opp;
        r
    }

    pub fn moves(&self) -> Vec<usize> {
        if self.s[0] >= 25 || self.s[1] >= 25 || (self.s[0] == 24 && self.s[1] == 24) {
            return vec![];
        }
        let own: Vec<usize> = (6 * self.side..6 * self.side + 6)
            .filter(|&i| self.h[i] > 0)
            .collect();
        let opp = 1 - self.side;
        if self.row(opp) == 0 {
            own.into_iter()
                .filter(|&i| self.sow(i).row(opp) > 0)
                .collect()
        } else {
            own
        }
    }

    pub fn perft(&self, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        self.moves().iter().map(|&m| self.sow(m).perft(d - 1)).sum()
    }
}

/// A case of a `.txt` data file: `key value` lines, cases separated by blank
/// lines, `#` comments.
#[derive(Debug, Clone)]
pub struct Case {
    pub lines: Vec<(String, String)>,
}

impl Case {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.lines
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.lines
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    pub fn id(&self) -> &str {
        self.get("id").unwrap_or("?")
    }
}

pub fn read_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut cur = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !cur.is_empty() {
                cases.push(Case {
                    lines: std::mem::take(&mut cur),
                });
            }
            continue;
        }
        let (k, v) = line.split_once(' ').unwrap_or((line, ""));
        cur.push((k.to_string(), v.trim().to_string()));
    }
    cases
}
