//! The FIDE Dutch system (Handbook C.04.3): the steps it follows, and
//! what it leaves out, are listed in the docs of the `swiss` module.

use super::{Entry, Player, Round, RoundPairing, SwissError};
use crate::{Outcome, Pairing, PlayerId};

/// Above this many candidates in one bracket, the best found is kept.
const MAX_CANDIDATES: usize = 2_000;
/// Above this many steps in one bracket's search, the best found is kept.
const MAX_STEPS: usize = 200_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    South,
    North,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::South => Colour::North,
            Colour::North => Colour::South,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    Mild,
    Strong,
    Absolute,
}

/// What the pairing needs to know of one entrant.
#[derive(Debug)]
struct History {
    id: PlayerId,
    /// 0-based pairing number (initial ranking).
    tpn: usize,
    active: bool,
    score: u32,
    /// The side played in each round, `None` when not playing.
    colours: Vec<Option<Colour>>,
    opponents: Vec<usize>,
    had_bye: bool,
    unplayed: u32,
    /// Per round: floated down (met a lower score, or did not play).
    down: Vec<bool>,
    /// Per round: floated up (met a higher score).
    up: Vec<bool>,
}

impl History {
    fn preference(&self) -> Option<(Colour, Strength)> {
        let played: Vec<Colour> = self.colours.iter().flatten().copied().collect();
        let &last = played.last()?;
        let souths = played.iter().filter(|&&c| c == Colour::South).count() as i64;
        let difference = 2 * souths - played.len() as i64;
        let twice = played.len() >= 2 && played[played.len() - 2] == last;
        Some(if difference > 1 || (twice && last == Colour::South) {
            (Colour::North, Strength::Absolute)
        } else if difference < -1 || (twice && last == Colour::North) {
            (Colour::South, Strength::Absolute)
        } else if difference == 1 {
            (Colour::North, Strength::Strong)
        } else if difference == -1 {
            (Colour::South, Strength::Strong)
        } else {
            (last.other(), Strength::Mild)
        })
    }
}

/// One player's round: `Some((opponent, colour, result))`, or `None` for
/// the bye.
type Line = (usize, Option<(usize, Colour, u32)>);

/// A bracket's pairs, and the players it floats down.
type BracketPairing = (Vec<(usize, usize)>, Vec<usize>);

struct Pairer {
    h: Vec<History>,
    prefs: Vec<Option<(Colour, Strength)>>,
    /// `forbidden[a * n + b]`: the caller forbids `a` and `b` (indices
    /// into `h`) to meet. A matrix, since `allowed` is asked for every
    /// pair many times over (a list scanned each time made a 200-player
    /// round with many blocks take 17 s).
    forbidden: Vec<bool>,
    /// The largest score difference allowed in a pair: the smallest with
    /// which everyone can be paired (see step 4 of the module docs).
    max_difference: u32,
}

pub(super) fn pair(
    players: &[Player],
    played: &[Round],
    forbidden: &[(PlayerId, PlayerId)],
) -> Result<RoundPairing, SwissError> {
    let pairer = Pairer::new(players, played, forbidden)?;
    pairer.pair()
}

impl Pairer {
    fn new(
        players: &[Player],
        played: &[Round],
        forbidden: &[(PlayerId, PlayerId)],
    ) -> Result<Self, SwissError> {
        let mut seeded: Vec<&Player> = Vec::with_capacity(players.len());
        for p in players {
            if !seeded.iter().any(|q| q.id == p.id) {
                seeded.push(p);
            }
        }
        seeded.sort_by_key(|p| (std::cmp::Reverse(p.rating), p.id));
        let mut h: Vec<History> = seeded
            .iter()
            .enumerate()
            .map(|(tpn, p)| History {
                id: p.id,
                tpn,
                active: p.active,
                score: 0,
                colours: Vec::with_capacity(played.len()),
                opponents: Vec::new(),
                had_bye: false,
                unplayed: 0,
                down: Vec::with_capacity(played.len()),
                up: Vec::with_capacity(played.len()),
            })
            .collect();
        let find = |id: PlayerId| {
            h.iter()
                .position(|x| x.id == id)
                .ok_or(SwissError::UnknownPlayer(id))
        };
        let mut rounds: Vec<Vec<Line>> = Vec::new();
        for (r, round) in played.iter().enumerate() {
            let mut lines = Vec::new();
            for entry in round {
                match *entry {
                    Entry::Game {
                        south,
                        north,
                        outcome,
                    } => {
                        let (s, n) = (find(south)?, find(north)?);
                        let outcome =
                            outcome.ok_or(SwissError::RoundNotFinished { round: r + 1 })?;
                        let (rs, rn) = match outcome {
                            Outcome::SouthWon => (2, 0),
                            Outcome::NorthWon => (0, 2),
                            Outcome::Draw => (1, 1),
                            Outcome::Void => (0, 0),
                        };
                        lines.push((s, Some((n, Colour::South, rs))));
                        lines.push((n, Some((s, Colour::North, rn))));
                    }
                    Entry::Bye { player } => lines.push((find(player)?, None)),
                }
            }
            rounds.push(lines);
        }
        for lines in &rounds {
            let before: Vec<u32> = h.iter().map(|x| x.score).collect();
            let mut seen = vec![false; h.len()];
            for &(p, game) in lines {
                seen[p] = true;
                match game {
                    Some((o, colour, result)) => {
                        h[p].colours.push(Some(colour));
                        h[p].opponents.push(o);
                        h[p].score += result;
                        h[p].down.push(before[o] < before[p]);
                        h[p].up.push(before[o] > before[p]);
                    }
                    None => {
                        h[p].colours.push(None);
                        h[p].had_bye = true;
                        h[p].unplayed += 1;
                        h[p].score += 2;
                        h[p].down.push(true);
                        h[p].up.push(false);
                    }
                }
            }
            for (p, seen) in seen.into_iter().enumerate() {
                if !seen {
                    h[p].colours.push(None);
                    h[p].unplayed += 1;
                    h[p].down.push(true);
                    h[p].up.push(false);
                }
            }
        }
        let prefs = h.iter().map(History::preference).collect();
        let n = h.len();
        let index: std::collections::HashMap<PlayerId, usize> =
            h.iter().enumerate().map(|(i, x)| (x.id, i)).collect();
        let mut matrix = vec![false; n * n];
        for (a, b) in forbidden {
            if let (Some(&a), Some(&b)) = (index.get(a), index.get(b)) {
                matrix[a * n + b] = true;
                matrix[b * n + a] = true;
            }
        }
        Ok(Pairer {
            h,
            prefs,
            forbidden: matrix,
            max_difference: u32::MAX,
        })
    }

    /// May `a` and `b` meet (C1, C3, and the caller's forbidden pairs)?
    fn allowed(&self, a: usize, b: usize) -> bool {
        if a == b
            || self.h[a].opponents.contains(&b)
            || self.h[a].score.abs_diff(self.h[b].score) > self.max_difference
        {
            return false;
        }
        if let (Some((ca, Strength::Absolute)), Some((cb, Strength::Absolute))) =
            (self.prefs[a], self.prefs[b])
        {
            if ca == cb {
                return false;
            }
        }
        !self.forbidden[a * self.h.len() + b]
    }

    /// Ranking order: score, then pairing number.
    fn rank_key(&self, p: usize) -> (std::cmp::Reverse<u32>, usize) {
        (std::cmp::Reverse(self.h[p].score), self.h[p].tpn)
    }

    fn pair(mut self) -> Result<RoundPairing, SwissError> {
        let mut active: Vec<usize> = (0..self.h.len()).filter(|&p| self.h[p].active).collect();
        if active.len() < 2 {
            return Err(SwissError::TooFewPlayers);
        }
        active.sort_by_key(|&p| self.rank_key(p));
        let mut bye = None;
        if active.len() % 2 == 1 {
            let mut candidates: Vec<usize> = active
                .iter()
                .copied()
                .filter(|&p| !self.h[p].had_bye)
                .collect();
            // Lowest score, then fewest unplayed rounds, then lowest-ranked.
            candidates.sort_by_key(|&p| {
                (
                    self.h[p].score,
                    self.h[p].unplayed,
                    std::cmp::Reverse(self.h[p].tpn),
                )
            });
            for c in candidates {
                let rest: Vec<usize> = active.iter().copied().filter(|&p| p != c).collect();
                if self.completes(&rest) {
                    bye = Some(c);
                    break;
                }
            }
            let Some(b) = bye else {
                return Err(SwissError::NoPairing);
            };
            active.retain(|&p| p != b);
        }
        if !self.completes(&active) {
            return Err(SwissError::NoPairing);
        }
        // The smallest largest score difference that still pairs everyone.
        let mut differences: Vec<u32> = active
            .iter()
            .flat_map(|&a| active.iter().map(move |&b| (a, b)))
            .map(|(a, b)| self.h[a].score.abs_diff(self.h[b].score))
            .collect();
        differences.sort_unstable();
        differences.dedup();
        for d in differences {
            self.max_difference = d;
            if self.completes(&active) {
                break;
            }
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut floaters: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < active.len() {
            let score = self.h[active[i]].score;
            let mut j = i;
            while j < active.len() && self.h[active[j]].score == score {
                j += 1;
            }
            let mut bracket = std::mem::take(&mut floaters);
            bracket.extend_from_slice(&active[i..j]);
            let lower = &active[j..];
            match self.pair_bracket(&bracket, lower) {
                Some((made, down)) => {
                    pairs.extend(made);
                    floaters = down;
                }
                None => {
                    // The search gave up within its limits: pair the rest
                    // by the completion search alone.
                    let mut rest = bracket;
                    rest.extend_from_slice(lower);
                    let made = self.matching(&rest).ok_or(SwissError::NoPairing)?;
                    pairs.extend(made);
                    break;
                }
            }
            i = j;
        }
        if !floaters.is_empty() {
            return Err(SwissError::NoPairing);
        }
        let mut games: Vec<(usize, usize)> = pairs
            .into_iter()
            .map(|(a, b)| self.allocate(a, b))
            .collect();
        // Boards in order of the higher-ranked player.
        games.sort_by_key(|&(s, n)| self.rank_key(s).min(self.rank_key(n)));
        Ok(RoundPairing {
            games: games
                .into_iter()
                .map(|(s, n)| Pairing {
                    south: self.h[s].id,
                    north: self.h[n].id,
                })
                .collect(),
            bye: bye.map(|b| self.h[b].id),
        })
    }

    /// Pairs one bracket: the pairs made and the players floated down, or
    /// `None` when the search hit its limits without a candidate.
    fn pair_bracket(&self, bracket: &[usize], lower: &[usize]) -> Option<BracketPairing> {
        let n = bracket.len();
        let mut f = n % 2;
        while f <= n {
            if lower.is_empty() && f > 0 {
                return None;
            }
            let mut search = BracketSearch {
                pairer: self,
                bracket,
                lower,
                floats_left: f,
                movers: bracket
                    .iter()
                    .take_while(|&&p| self.h[p].score > self.h[bracket[n - 1]].score)
                    .count(),
                s1_end: 0,
                assigned: vec![None; n],
                best: None,
                candidates: 0,
                steps: 0,
            };
            search.visit(0);
            if let Some((_, pairing)) = search.best {
                return Some(pairing);
            }
            if search.candidates >= MAX_CANDIDATES || search.steps >= MAX_STEPS {
                return None;
            }
            f += 2;
        }
        None
    }

    /// Can `set` be paired entirely under the absolute criteria?
    fn completes(&self, set: &[usize]) -> bool {
        self.matching(set).is_some()
    }

    /// A perfect pairing of `set` under the absolute criteria, if any: a
    /// maximum matching (Edmonds' blossom algorithm, polynomial), so the
    /// answer is exact however the criteria constrain the field.
    fn matching(&self, set: &[usize]) -> Option<Vec<(usize, usize)>> {
        if set.len() % 2 == 1 {
            return None;
        }
        let adjacency: Vec<Vec<usize>> = set
            .iter()
            .map(|&a| {
                (0..set.len())
                    .filter(|&j| self.allowed(a, set[j]))
                    .collect()
            })
            .collect();
        let mate = maximum_matching(&adjacency);
        let mut out = Vec::with_capacity(set.len() / 2);
        for (i, m) in mate.iter().enumerate() {
            match *m {
                Some(j) if i < j => out.push((set[i], set[j])),
                Some(_) => {}
                None => return None,
            }
        }
        Some(out)
    }

    /// The colours of a pair (E1–E5): returns (South, North).
    fn allocate(&self, a: usize, b: usize) -> (usize, usize) {
        let (hi, lo) = if self.rank_key(a) <= self.rank_key(b) {
            (a, b)
        } else {
            (b, a)
        };
        let hi_gets = |c: Colour| {
            if c == Colour::South {
                (hi, lo)
            } else {
                (lo, hi)
            }
        };
        match (self.prefs[hi], self.prefs[lo]) {
            (None, None) => hi_gets(if self.h[hi].tpn.is_multiple_of(2) {
                Colour::South
            } else {
                Colour::North
            }),
            (Some((c, _)), None) => hi_gets(c),
            (None, Some((c, _))) => hi_gets(c.other()),
            (Some((ch, sh)), Some((cl, sl))) => {
                if ch != cl {
                    hi_gets(ch)
                } else if sh != sl {
                    if sh > sl {
                        hi_gets(ch)
                    } else {
                        hi_gets(cl.other())
                    }
                } else {
                    // E3: alternate from the latest round in which they had
                    // different colours.
                    let rounds = self.h[hi].colours.len();
                    for r in (0..rounds).rev() {
                        if let (Some(x), Some(y)) = (self.h[hi].colours[r], self.h[lo].colours[r]) {
                            if x != y {
                                return hi_gets(x.other());
                            }
                        }
                    }
                    hi_gets(ch)
                }
            }
        }
    }

    /// How far a pair misses the players' colour preferences: (players
    /// without their preference, strong or absolute preferences missed).
    fn colour_cost(&self, a: usize, b: usize) -> (u32, u32) {
        let (s, n) = self.allocate(a, b);
        let mut cost = (0, 0);
        for (p, got) in [(s, Colour::South), (n, Colour::North)] {
            if let Some((want, strength)) = self.prefs[p] {
                if want != got {
                    cost.0 += 1;
                    if strength >= Strength::Strong {
                        cost.1 += 1;
                    }
                }
            }
        }
        cost
    }
}

/// The quality of a bracket's candidate, compared lexicographically
/// (smaller is better): the scores floated down (highest first), the score
/// differences of the pairs (largest first), players without their colour
/// preference, strong preferences missed, repeated floats (C12–C15).
type Quality = (Vec<u32>, Vec<u32>, u32, u32, [u32; 4]);

struct BracketSearch<'p> {
    pairer: &'p Pairer,
    bracket: &'p [usize],
    lower: &'p [usize],
    floats_left: usize,
    /// The players moved down from above: the first places.
    movers: usize,
    /// Where S2 of the residents starts (set when the search reaches the
    /// first resident: S1 is as many of the residents left as there are
    /// pairs to make among them).
    s1_end: usize,
    /// For each place: `Some(partner place)`, or `Some(place)` itself for
    /// a floater.
    assigned: Vec<Option<usize>>,
    best: Option<(Quality, BracketPairing)>,
    candidates: usize,
    steps: usize,
}

impl BracketSearch<'_> {
    fn done(&self) -> bool {
        self.candidates >= MAX_CANDIDATES
            || self.steps >= MAX_STEPS
            || self.best.as_ref().is_some_and(|b| self.perfect(&b.0))
    }

    /// Nothing can beat a candidate whose floaters are the lowest scores
    /// possible, with no score difference, colour or float cost.
    fn perfect(&self, q: &Quality) -> bool {
        q.1.iter().all(|&d| d == 0) && q.2 == 0 && q.3 == 0 && q.4 == [0; 4] && {
            let mut lowest: Vec<u32> = self
                .bracket
                .iter()
                .map(|&p| self.pairer.h[p].score)
                .collect();
            lowest.sort_unstable();
            lowest.truncate(q.0.len());
            lowest.reverse();
            lowest == q.0
        }
    }

    fn visit(&mut self, i: usize) {
        if self.done() {
            return;
        }
        self.steps += 1;
        let n = self.bracket.len();
        if i == n {
            self.leaf();
            return;
        }
        if i == self.movers {
            let free: Vec<usize> = (i..n).filter(|&j| self.assigned[j].is_none()).collect();
            let pairs = free.len().saturating_sub(self.floats_left) / 2;
            self.s1_end = if pairs == 0 { i } else { free[pairs - 1] + 1 };
        }
        if self.assigned[i].is_some() {
            self.visit(i + 1);
            return;
        }
        let unassigned_after = (i + 1..n).filter(|&j| self.assigned[j].is_none()).count();
        // Partners in the rules' order. A player moved down meets the
        // residents in order, then the other movers. A resident of S1 meets
        // S2 from its top (transpositions), then the rest of S1 from its
        // bottom (exchanges); a resident of S2 the rest of S2 in order.
        let partners: Vec<usize> = if i < self.movers {
            (self.movers..n).chain(i + 1..self.movers).collect()
        } else if i < self.s1_end {
            (self.s1_end..n).chain((i + 1..self.s1_end).rev()).collect()
        } else {
            (i + 1..n).collect()
        };
        let a = self.bracket[i];
        for j in partners {
            if self.assigned[j].is_none() && self.pairer.allowed(a, self.bracket[j]) {
                self.assigned[i] = Some(j);
                self.assigned[j] = Some(i);
                self.visit(i + 1);
                self.assigned[i] = None;
                self.assigned[j] = None;
                if self.done() {
                    return;
                }
            }
        }
        // Float down, if floats are left and the others can still pair.
        if self.floats_left > 0 && unassigned_after >= self.floats_left - 1 {
            self.floats_left -= 1;
            self.assigned[i] = Some(i);
            self.visit(i + 1);
            self.assigned[i] = None;
            self.floats_left += 1;
        }
    }

    fn leaf(&mut self) {
        if self.floats_left > 0 {
            return;
        }
        self.candidates += 1;
        let h = &self.pairer.h;
        let mut pairs = Vec::new();
        let mut floaters = Vec::new();
        for (i, a) in self.assigned.iter().enumerate() {
            match *a {
                Some(j) if j == i => floaters.push(self.bracket[i]),
                Some(j) if j > i => pairs.push((self.bracket[i], self.bracket[j])),
                _ => {}
            }
        }
        let mut down: Vec<u32> = floaters.iter().map(|&p| h[p].score).collect();
        down.sort_unstable_by(|a, b| b.cmp(a));
        let mut differences: Vec<u32> = pairs
            .iter()
            .map(|&(a, b)| h[a].score.abs_diff(h[b].score))
            .collect();
        differences.sort_unstable_by(|a, b| b.cmp(a));
        let (mut missed, mut strong) = (0, 0);
        // Floats repeated from the last round (C12 down, C13 up) and from
        // the round before (C14 down, C15 up).
        let ago = |v: &Vec<bool>, k: usize| v.len() >= k && v[v.len() - k];
        let mut repeats = [0u32; 4];
        for &(a, b) in &pairs {
            let (m, s) = self.pairer.colour_cost(a, b);
            missed += m;
            strong += s;
            for (x, y) in [(a, b), (b, a)] {
                if h[x].score < h[y].score {
                    repeats[1] += u32::from(ago(&h[x].up, 1));
                    repeats[3] += u32::from(ago(&h[x].up, 2));
                }
            }
        }
        for &p in &floaters {
            repeats[0] += u32::from(ago(&h[p].down, 1));
            repeats[2] += u32::from(ago(&h[p].down, 2));
        }
        let quality: Quality = (down, differences, missed, strong, repeats);
        if self.best.as_ref().is_some_and(|b| b.0 <= quality) {
            return;
        }
        let mut rest = floaters.clone();
        rest.extend_from_slice(self.lower);
        if !self.pairer.completes(&rest) {
            return;
        }
        self.best = Some((quality, (pairs, floaters)));
    }
}

/// A maximum matching of the graph given by `adjacency` (Edmonds' blossom
/// algorithm): each vertex's mate, if any.
fn maximum_matching(adjacency: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = adjacency.len();
    let mut mate: Vec<Option<usize>> = vec![None; n];
    // A greedy start, then augmenting paths from each free vertex.
    for v in 0..n {
        if mate[v].is_none() {
            if let Some(&u) = adjacency[v].iter().find(|&&u| mate[u].is_none() && u != v) {
                mate[v] = Some(u);
                mate[u] = Some(v);
            }
        }
    }
    for root in 0..n {
        if mate[root].is_some() {
            continue;
        }
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut used = vec![false; n];
        let mut queue = std::collections::VecDeque::from([root]);
        used[root] = true;
        let mut end = None;
        'search: while let Some(v) = queue.pop_front() {
            for &to in &adjacency[v] {
                if base[v] == base[to] || mate[v] == Some(to) {
                    continue;
                }
                if to == root || mate[to].is_some_and(|m| parent[m].is_some()) {
                    let current = common_base(v, to, &base, &mate, &parent);
                    let mut in_blossom = vec![false; n];
                    mark_path(
                        v,
                        current,
                        to,
                        &mut base,
                        &mate,
                        &mut parent,
                        &mut in_blossom,
                    );
                    mark_path(
                        to,
                        current,
                        v,
                        &mut base,
                        &mate,
                        &mut parent,
                        &mut in_blossom,
                    );
                    for i in 0..n {
                        if in_blossom[base[i]] {
                            base[i] = current;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to].is_none() {
                    parent[to] = Some(v);
                    match mate[to] {
                        None => {
                            end = Some(to);
                            break 'search;
                        }
                        Some(m) => {
                            used[m] = true;
                            queue.push_back(m);
                        }
                    }
                }
            }
        }
        // Augment along the path found.
        let mut v = end;
        while let Some(x) = v {
            let px = parent[x].expect("an augmenting path has parents");
            let next = mate[px];
            mate[x] = Some(px);
            mate[px] = Some(x);
            v = next;
        }
    }
    mate
}

fn common_base(
    a: usize,
    b: usize,
    base: &[usize],
    mate: &[Option<usize>],
    parent: &[Option<usize>],
) -> usize {
    let mut seen = vec![false; base.len()];
    let mut a = a;
    loop {
        a = base[a];
        seen[a] = true;
        match mate[a] {
            None => break,
            Some(m) => a = parent[m].expect("matched vertices in the tree have parents"),
        }
    }
    let mut b = b;
    loop {
        b = base[b];
        if seen[b] {
            return b;
        }
        let m = mate[b].expect("the path reaches the root's side");
        b = parent[m].expect("matched vertices in the tree have parents");
    }
}

fn mark_path(
    mut v: usize,
    b: usize,
    mut child: usize,
    base: &mut [usize],
    mate: &[Option<usize>],
    parent: &mut [Option<usize>],
    in_blossom: &mut [bool],
) {
    while base[v] != b {
        let m = mate[v].expect("blossom vertices are matched");
        in_blossom[base[v]] = true;
        in_blossom[base[m]] = true;
        parent[v] = Some(child);
        child = m;
        v = parent[m].expect("blossom vertices have parents");
    }
}

#[cfg(test)]
mod tests {
    use super::maximum_matching;

    /// The size of a maximum matching, by trying everything.
    fn brute(n: usize, edges: &[Vec<bool>], free: u32) -> usize {
        let Some(a) = (0..n).find(|&v| free >> v & 1 == 1) else {
            return 0;
        };
        let without = free & !(1 << a);
        let mut best = brute(n, edges, without);
        for b in 0..n {
            if without >> b & 1 == 1 && edges[a][b] {
                best = best.max(1 + brute(n, edges, without & !(1 << b)));
            }
        }
        best
    }

    #[test]
    fn blossom_matching_is_maximum() {
        let mut seed = 99u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for _ in 0..3000 {
            let n = 1 + (next() % 11) as usize;
            let density = 1 + next() % 6;
            let mut edges = vec![vec![false; n]; n];
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            for (a, b) in pairs {
                if next() % 8 < density {
                    edges[a][b] = true;
                    edges[b][a] = true;
                }
            }
            let adjacency: Vec<Vec<usize>> = (0..n)
                .map(|a| (0..n).filter(|&b| edges[a][b]).collect())
                .collect();
            let mate = maximum_matching(&adjacency);
            for (a, m) in mate.iter().enumerate() {
                if let Some(b) = *m {
                    assert!(edges[a][b]);
                    assert_eq!(mate[b], Some(a));
                }
            }
            let size = mate.iter().flatten().count() / 2;
            assert_eq!(size, brute(n, &edges, (1 << n) - 1), "{adjacency:?}");
        }
    }
}
