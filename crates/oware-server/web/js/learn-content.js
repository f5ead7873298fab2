// The teaching texts and boards (lessons R1–R13, worked examples, common
// mistakes, tips and the rules page) live in /data/lessons.json, in English
// and French: the file crates/oware-session/data/lessons.json, which the
// server serves as it is and the terminal's `oware learn` reads too. Each
// board has a `check` object stating what its text promises (legal moves,
// captures, the outcome); crates/oware-session/tests/lessons.rs replays
// every board through oware-core and compares, so the page and the rules
// cannot drift apart.

export const START = '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S';

let loading = null;

/** The lesson data: {lessons, examples, mistakes, tips, rules_page}. */
export function loadContent() {
  if (!loading) {
    loading = fetch('/data/lessons.json').then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json();
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}
