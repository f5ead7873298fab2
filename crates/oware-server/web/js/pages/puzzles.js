// Puzzles (/puzzles, /puzzles/daily, /puzzles/N): find the one move that
// wins, or saves, clearly more than every other. The server picks a puzzle
// near the player's rating, judges the attempt and says why, in the
// page's language; the board animates the server's traces. Visitors keep
// their streak and a rough rating in this browser; signed-in players get
// a Glicko-2 rating from the server.
//
// Offline (or with the server out of reach) the puzzles come from the
// browser's WebAssembly module, which holds the same shipped set: the
// session layer picks, judges and words an attempt there as the server
// does, and the core gives the legal moves and traces. Nothing is rated
// then; the streak and the rating here are kept in this browser
// (docs/WEB.md, "Offline and installable").

import { api, ApiError, refusal } from '../api.js';
import { Board } from '../board.js';
import { t, lang, sideName, errorText } from '../i18n.js';
import { esc, setMsg, announce, settings, navigate } from '../ui.js';
import { currentUser } from '../account.js';
import { offline, localRulesState } from '../local.js';
import { readyEngine } from '../engine/client.js';

/** The module's answer to a request, without `ok`; a refusal as the server's. */
async function fromModule(request) {
  const eng = await readyEngine();
  if (!eng) throw new ApiError(0, 'network', 'network');
  const r = await eng.request(request);
  if (!r.ok) throw refusal(r);
  const { ok, ...body } = r;
  return body;
}

/** The puzzles' calls of this page, answered by the module (no server). */
export const modulePuzzles = {
  next: (rating, seen, l) => fromModule({ op: 'puzzle_next', rating, skip: seen, seed: Math.floor(Math.random() * 2 ** 31), lang: l }),
  async daily(l) {
    const day = Math.floor(Date.now() / 86400000);
    const p = await fromModule({ op: 'puzzle_daily', day, lang: l });
    return { ...p, date: new Date(day * 86400000).toISOString().slice(0, 10) };
  },
  one: (id, l) => fromModule({ op: 'puzzle', id: Number(id), lang: l }),
  attempt: (id, moves, l) => fromModule({ op: 'puzzle_attempt', id, moves, lang: l }),
  rulesState: localRulesState,
};

const serverPuzzles = {
  next: (rating, seen, l) => api.puzzleNext(rating, seen, l),
  daily: (l) => api.puzzleDaily(l),
  one: (id, l) => api.puzzle(id, l),
  attempt: (id, moves, l) => api.puzzleAttempt(id, moves, l),
  rulesState: (position, moves) => api.rulesState(position, moves),
};

const KEY = 'oware.puzzles';

/** The visitor's puzzle record in this browser. */
function loadLocal() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    return { rating: Number(v.rating) || 1500, streak: Number(v.streak) || 0, best: Number(v.best) || 0, seen: Array.isArray(v.seen) ? v.seen.slice(-300) : [] };
  } catch (_) {
    return { rating: 1500, streak: 0, best: 0, seen: [] };
  }
}
function saveLocal(v) { localStorage.setItem(KEY, JSON.stringify(v)); }

/** A visitor's rough rating after a puzzle (an Elo step, K = 32): the
 * server rates accounts; this only keeps the next puzzle near the visitor. */
function localStep(mine, theirs, solved) {
  const expected = 1 / (1 + 10 ** ((theirs - mine) / 400));
  return Math.round(Math.max(400, Math.min(3000, mine + 32 * ((solved ? 1 : 0) - expected))));
}

export function mount(main, which) {
  let alive = true;
  let puzzle = null;
  let done = false;
  // The solution being shown: moving on (or leaving) stops it.
  let showing = 0;
  const stopShowing = () => { showing += 1; board.cancelAnimation(); };
  const local = loadLocal();
  // Where this puzzle comes from: the server, or the module offline.
  let src = offline() ? modulePuzzles : serverPuzzles;
  main.innerHTML = `
    <h1>${esc(t('puz.title'))}</h1>
    <p class="muted puz-lead">${esc(t('puz.lead'))}</p>
    <div class="game">
      <section>
        <p class="msg warn puz-offline" role="status" hidden>${esc(t('puz.offline'))}</p>
        <p class="puz-task" role="status"></p>
        <div class="puz-board"></div>
        <div class="msg puz-msg" role="status" aria-live="polite"></div>
        <div class="row puz-actions">
          <button class="btn small puz-show" type="button" hidden>${esc(t('puz.show'))}</button>
          <button class="btn primary puz-next" type="button" hidden>${esc(t('puz.next'))}</button>
        </div>
      </section>
      <aside class="side-panel">
        <div class="card puz-info">
          <p class="puz-rating"></p>
          <p class="puz-streak"></p>
          <p class="puz-themes muted"></p>
          <p><a href="/puzzles/daily" data-link class="puz-daily">${esc(t('puz.daily'))}</a> · <a href="/puzzles" data-link>${esc(t('puz.more'))}</a></p>
        </div>
      </aside>
    </div>`;
  const q = (s) => main.querySelector(s);
  const board = new Board(q('.puz-board'), { onPlay: (l) => play(l) });

  function info() {
    const me = currentUser();
    const yours = puzzle?.your_rating;
    q('.puz-rating').textContent = puzzle
      ? `${t('puz.rating', { n: puzzle.rating })} · ${me && yours ? t('puz.yours', { n: yours }) : t('puz.yoursLocal', { n: local.rating })}`
      : '';
    q('.puz-streak').textContent = t('puz.streak', { n: local.streak, best: local.best });
  }

  async function load() {
    stopShowing();
    done = false;
    q('.puz-show').hidden = true;
    q('.puz-next').hidden = true;
    q('.puz-themes').textContent = '';
    setMsg(q('.puz-msg'), '');
    q('.puz-task').textContent = t('game.loading');
    const ask = () => {
      const l = lang();
      if (which === 'daily') return src.daily(l);
      if (which && /^\d+$/.test(which)) return src.one(which, l);
      return src.next(local.rating, local.seen, l);
    };
    src = offline() ? modulePuzzles : serverPuzzles;
    try {
      try {
        puzzle = await ask();
      } catch (e) {
        // The server out of reach: the puzzles this device holds.
        if (e.code !== 'network' || src === modulePuzzles) throw e;
        src = modulePuzzles;
        puzzle = await ask();
      }
    } catch (e) {
      if (alive) { q('.puz-task').textContent = ''; setMsg(q('.puz-msg'), errorText(e), 'bad'); }
      return;
    }
    if (!alive) return;
    q('.puz-offline').hidden = src !== modulePuzzles;
    q('.puz-board').dataset.puzzle = String(puzzle.id);
    board.setOrientation(puzzle.to_move);
    board.setLastMove(null);
    board.setPosition(puzzle.position);
    const head = which === 'daily' ? `${t('puz.dailyOf', { date: puzzle.date })} · ` : '';
    q('.puz-task').textContent = `${head}${t('puz.task', { n: puzzle.id, side: sideName(puzzle.to_move) })}`;
    info();
    try {
      const st = await src.rulesState(puzzle.position);
      if (!alive) return;
      board.setPlayable(st.legal);
      board.focusFirst();
    } catch (e) {
      setMsg(q('.puz-msg'), errorText(e), 'bad');
    }
  }

  async function play(letter) {
    if (!puzzle || done || board.animating) return;
    done = true;
    board.setPlayable([]);
    let result;
    try {
      const [st, r] = await Promise.all([
        src.rulesState(puzzle.position, letter),
        src.attempt(puzzle.id, [letter], lang()),
      ]);
      result = r;
      if (!alive) return;
      await board.animate({ ...st.last, after: st.position }, { instant: !settings.get('animate') });
    } catch (e) {
      done = false;
      if (alive) { setMsg(q('.puz-msg'), errorText(e), 'bad'); board.setPlayable(null); load(); }
      return;
    }
    if (!alive) return;
    if (!local.seen.includes(puzzle.id)) local.seen.push(puzzle.id);
    local.rating = localStep(local.rating, puzzle.rating, result.solved);
    local.streak = result.solved ? local.streak + 1 : 0;
    local.best = Math.max(local.best, local.streak);
    saveLocal(local);
    if (result.your_rating) puzzle.your_rating = result.your_rating;
    puzzle.rating = result.rating;
    setMsg(q('.puz-msg'), result.text, result.solved ? 'ok' : 'bad');
    q('.puz-msg').classList.add(result.solved ? 'puz-solved' : 'puz-failed');
    announce(result.text);
    q('.puz-themes').textContent = `${t('puz.themes')} ${puzzle.theme_names.join(', ')}`;
    q('.puz-show').hidden = false;
    q('.puz-show').dataset.line = result.line.join('');
    q('.puz-next').hidden = false;
    q('.puz-next').focus();
    info();
  }

  // The solution and its line, move by move from the puzzle's position.
  q('.puz-show').addEventListener('click', async () => {
    stopShowing();
    const mine = showing;
    const shown = puzzle;
    const from = src;
    const line = q('.puz-show').dataset.line || '';
    board.setPosition(shown.position);
    board.setLastMove(null);
    for (let k = 1; k <= Math.min(line.length, 6); k++) {
      // eslint-disable-next-line no-await-in-loop
      const st = await from.rulesState(shown.position, line.slice(0, k)).catch(() => null);
      if (!st || !alive || mine !== showing) return;
      // eslint-disable-next-line no-await-in-loop
      if (!(await board.animate({ ...st.last, after: st.position }, { instant: !settings.get('animate') }))) return;
      if (mine !== showing || st.status === 'over') break;
    }
  });
  q('.puz-next').addEventListener('click', () => {
    if (which) navigate('/puzzles');
    else load();
  });
  load();
  return () => { alive = false; stopShowing(); };
}
