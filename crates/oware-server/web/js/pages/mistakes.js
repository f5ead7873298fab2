// Learn from your mistakes (/mistakes/{gameId}?side=S): after a game, the
// engine coach judges every move of the player's side (POST /mistakes) and
// each move it warns about comes back as an exercise: the position before
// it, "find a better move". A try is judged by the coach (POST /coach, the
// same kept analysis): best or good solves it. The board animates the
// server's traces; no rule is known here.

import { api, seats } from '../api.js';
import { Board } from '../board.js';
import { t, lang, errorText } from '../i18n.js';
import { esc, setMsg, announce, settings } from '../ui.js';

export function mount(main, id) {
  let alive = true;
  const params = new URLSearchParams(location.search);
  const mine = ['S', 'N'].filter((s) => seats.get(id)[s]);
  const side = params.get('side') === 'N' || params.get('side') === 'S' ? params.get('side') : (mine[0] || 'S');
  let game = null;
  let list = [];
  let k = 0;
  let busy = false;
  main.innerHTML = `
    <h1>${esc(t('mis.title'))}</h1>
    <p class="muted">${esc(t('mis.lead'))} <a href="/review/${esc(id)}" data-link>${esc(t('game.review'))}</a></p>
    <div class="game">
      <section>
        <p class="mis-task" role="status">${esc(t('mis.looking'))}</p>
        <div class="mis-board"></div>
        <div class="msg mis-msg" role="status" aria-live="polite"></div>
        <div class="row">
          <button class="btn small mis-show" type="button" hidden>${esc(t('mis.show'))}</button>
          <button class="btn primary mis-next" type="button" hidden>${esc(t('mis.next'))}</button>
        </div>
      </section>
      <aside class="side-panel"><div class="card"><p class="mis-count"></p><p class="mis-played"></p></div></aside>
    </div>`;
  const q = (s) => main.querySelector(s);
  const board = new Board(q('.mis-board'), { orientation: side, onPlay: (l) => tryMove(l) });
  const computer = () => (game?.mode === 'computer' ? (side === 'S' ? 'N' : 'S') : undefined);

  async function start() {
    try {
      game = await api.getGame(id);
      if (!alive) return;
      const r = await api.mistakes(game.start, game.plies.join(''), side, lang(), computer());
      if (!alive) return;
      list = r.exercises;
      if (!list.length) {
        q('.mis-task').textContent = t('mis.none', { n: r.judged });
        board.setPosition(game.position);
        return;
      }
      show(0);
    } catch (e) {
      if (alive) { q('.mis-task').textContent = ''; setMsg(q('.mis-msg'), errorText(e), 'bad'); }
    }
  }

  async function show(i) {
    k = i;
    const ex = list[k];
    q('.mis-show').hidden = true;
    q('.mis-next').hidden = true;
    setMsg(q('.mis-msg'), '');
    board.setLastMove(null);
    board.setPosition(ex.position);
    q('.mis-board').dataset.ply = String(ex.ply);
    q('.mis-count').textContent = t('mis.count', { k: k + 1, n: list.length });
    q('.mis-played').textContent = ex.text;
    q('.mis-task').textContent = t('mis.task', { n: Math.floor(ex.ply / 2) + 1, move: ex.played, verdict: t(`mis.${ex.verdict}`) });
    const st = await api.rulesState(game.start, ex.moves).catch(() => null);
    if (!alive || !st) return;
    board.setPlayable(st.legal);
    busy = false;
  }

  async function tryMove(letter) {
    const ex = list[k];
    if (!ex || busy || board.animating) return;
    busy = true;
    board.setPlayable([]);
    let verdict;
    try {
      const [st, c] = await Promise.all([
        api.rulesState(game.start, ex.moves + letter),
        api.coach(game.start, ex.moves, letter, lang(), computer()),
      ]);
      verdict = c;
      if (!alive) return;
      await board.animate({ ...st.last, after: st.position }, { instant: !settings.get('animate') });
    } catch (e) {
      busy = false;
      if (alive) { setMsg(q('.mis-msg'), errorText(e), 'bad'); show(k); }
      return;
    }
    if (!alive) return;
    const solved = verdict.verdict === 'best' || verdict.verdict === 'good';
    const text = `${solved ? t('mis.better') : t('mis.notYet')} ${verdict.text}`;
    setMsg(q('.mis-msg'), text, solved ? 'ok' : 'bad');
    q('.mis-msg').classList.toggle('mis-solved', solved);
    q('.mis-msg').classList.toggle('mis-failed', !solved);
    announce(text);
    q('.mis-show').hidden = false;
    q('.mis-show').dataset.best = verdict.best;
    q('.mis-show').dataset.text = (verdict.moves.find((m) => m.move === verdict.best) || {}).text || '';
    q('.mis-next').hidden = k + 1 >= list.length && solved;
    if (!solved) q('.mis-next').textContent = t('mis.retry');
    else q('.mis-next').textContent = t('mis.next');
    q('.mis-next').dataset.solved = solved ? '1' : '';
  }

  q('.mis-next').addEventListener('click', () => {
    if (q('.mis-next').dataset.solved) { if (k + 1 < list.length) show(k + 1); } else show(k);
  });
  q('.mis-show').addEventListener('click', () => {
    setMsg(q('.mis-msg'), `${t('mis.best', { move: q('.mis-show').dataset.best })} ${q('.mis-show').dataset.text}`, 'ok');
  });
  start();
  return () => { alive = false; };
}
