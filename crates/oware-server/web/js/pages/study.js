// Position editor: set up a position, have the server check it, ask the
// engine, try moves, or start a game from it. With the network cut the
// browser's module checks it and the game is played on this device.

import { api, seats } from '../api.js';
import { Board, parsePosition, formatPosition, indexOf } from '../board.js';
import { t, lang, sideName, formatScore, errorText } from '../i18n.js';
import { esc, navigate, setMsg } from '../ui.js';
import { RulesBoard, resultParts } from '../rulesboard.js';
import { pvText } from '../moves.js';
import { coachAnywhere } from '../engine/client.js';
import { offline, serverOrHere, localRulesState, createLocalGame } from '../local.js';

const START = '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S';
// A line's first moves, in pairs, under each move (the whole line in its
// title): the coach's deeper look gives lines of 18 plies and more, which
// a 250-px column would fold into three lines or more.
const PV_PAIRS = 6;

export function mount(main) {
  const initial = new URLSearchParams(location.search).get('position') || START;
  let pos = parsePosition(initial);
  main.innerHTML = `
    <h1>${esc(t('study.title'))}</h1>
    <p class="muted">${esc(t('study.help'))}</p>
    <div class="row" role="group">
      <button class="btn mode-edit" type="button" aria-pressed="true">${esc(t('study.edit'))}</button>
      <button class="btn mode-play" type="button" aria-pressed="false">${esc(t('study.play'))}</button>
    </div>
    <div class="game">
      <section>
        <div class="editor edit-host"></div>
        <div class="play-host" hidden></div>
        <div class="card edit-fields">
          <div class="row">
            <label>${esc(t('play.custom'))} <input type="text" class="pos-input mono" size="34"></label>
            <button class="btn small set-btn" type="button">${esc(t('study.apply'))}</button>
          </div>
          <div class="row">
            <fieldset><legend>${esc(t('study.toMove'))}</legend>
              <label class="choice"><input type="radio" name="tomove" value="S"> ${esc(sideName('S'))}</label>
              <label class="choice"><input type="radio" name="tomove" value="N"> ${esc(sideName('N'))}</label>
            </fieldset>
            <fieldset><legend>${esc(t('study.stores'))}</legend>
              <label>${esc(sideName('S'))} <input type="number" class="store-S" min="0" max="48" style="width:4.5em"></label>
              <label>${esc(sideName('N'))} <input type="number" class="store-N" min="0" max="48" style="width:4.5em"></label>
            </fieldset>
          </div>
          <p class="total muted"></p>
          <div class="row">
            <button class="btn small clear-btn" type="button">${esc(t('study.clear'))}</button>
            <button class="btn small reset-btn" type="button">${esc(t('study.reset'))}</button>
          </div>
        </div>
        <div class="msg check-msg" role="status"></div>
      </section>
      <aside class="side-panel">
        <div class="card">
          <button class="btn primary ask-btn" type="button">${esc(t('study.ask'))}</button>
          <div class="analysis" aria-live="polite"></div>
        </div>
        <div class="card">
          <button class="btn as-computer" type="button">${esc(t('study.asPlay'))}</button>
          <p></p>
          <button class="btn as-hotseat" type="button">${esc(t('study.asHotseat'))}</button>
        </div>
      </aside>
    </div>`;
  const q = (s) => main.querySelector(s);
  const board = new Board(q('.edit-host'), { onPlay: (l) => bump(l, 1) });
  for (const h of board.houses) {
    h.addEventListener('contextmenu', (e) => { e.preventDefault(); bump(h.dataset.house, -1); });
    h.addEventListener('click', (e) => { if (e.shiftKey) { e.stopImmediatePropagation(); bump(h.dataset.house, -1); } }, true);
    h.addEventListener('keydown', (e) => {
      if (e.key === '+' ) bump(h.dataset.house, 1);
      if (e.key === '-' || e.key === 'Delete' || e.key === 'Backspace') { e.preventDefault(); bump(h.dataset.house, -1); }
    });
  }
  let rb = null;
  function current() { return formatPosition(pos); }
  function sync() {
    board.setPosition(pos);
    board.setPlayable(board.houses.map((h) => h.dataset.house));
    q('.pos-input').value = current();
    q(`[name=tomove][value=${pos.toMove}]`).checked = true;
    q('.store-S').value = pos.stores.S;
    q('.store-N').value = pos.stores.N;
    const total = pos.houses.reduce((a, b) => a + b, 0) + pos.stores.S + pos.stores.N;
    q('.total').textContent = t('study.total', { n: total });
    history.replaceState(null, '', `/study?position=${encodeURIComponent(current())}`);
    // Analysis of another position would mislead: clear it.
    q('.analysis').innerHTML = '';
    check();
  }
  let checkSeq = 0;
  function total() { return pos.houses.reduce((a, b) => a + b, 0) + pos.stores.S + pos.stores.N; }
  async function check() {
    const mine = ++checkSeq;
    // Counting to 48 needs no rule: an editor half-way through a change is
    // told here, and the server is asked only about complete positions.
    const n = total();
    for (const sel of ['.ask-btn', '.mode-play', '.as-computer', '.as-hotseat']) q(sel).disabled = n !== 48;
    if (n !== 48) {
      setMsg(q('.check-msg'), t('study.totalBad', { n, d: Math.abs(48 - n) }), 'bad');
      return null;
    }
    try {
      const st = await serverOrHere(() => api.rulesState(current()), () => localRulesState(current()));
      if (mine !== checkSeq) return;
      setMsg(q('.check-msg'), st.status === 'over' ? resultText(st) : `${t('game.toMove', { side: sideName(st.to_move) })}: ${st.legal.join(' ') || '—'}`, st.status === 'over' ? 'warn' : 'ok');
      return st;
    } catch (e) {
      if (mine === checkSeq) setMsg(q('.check-msg'), errorText(e), 'bad');
      return null;
    }
  }
  function resultText(st) {
    const { head, why } = resultParts(st.result);
    return st.result ? `${t('game.overColon')} ${head}: ${why}.` : t('game.over');
  }
  function bump(letter, d) {
    const i = indexOf(letter);
    pos.houses[i] = Math.max(0, Math.min(48, pos.houses[i] + d));
    sync();
  }
  q('.set-btn').addEventListener('click', () => { pos = parsePosition(q('.pos-input').value); sync(); });
  q('.pos-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') { pos = parsePosition(q('.pos-input').value); sync(); } });
  for (const r of main.querySelectorAll('[name=tomove]')) r.addEventListener('change', () => { pos.toMove = r.value; sync(); });
  q('.store-S').addEventListener('change', (e) => { pos.stores.S = Number(e.target.value) || 0; sync(); });
  q('.store-N').addEventListener('change', (e) => { pos.stores.N = Number(e.target.value) || 0; sync(); });
  q('.clear-btn').addEventListener('click', () => { pos = parsePosition('0-0-0-0-0-0-0-0-0-0-0-0-0-0-S'); sync(); });
  q('.reset-btn').addEventListener('click', () => { pos = parsePosition(START); sync(); });

  const setMode = (play) => {
    q('.mode-edit').setAttribute('aria-pressed', String(!play));
    q('.mode-play').setAttribute('aria-pressed', String(play));
    q('.edit-host').hidden = play;
    q('.edit-fields').hidden = play;
    q('.play-host').hidden = !play;
    if (play) rb = new RulesBoard(q('.play-host'), { position: current() });
    else rb = null;
  };
  q('.mode-edit').addEventListener('click', () => setMode(false));
  q('.mode-play').addEventListener('click', () => setMode(true));

  q('.ask-btn').addEventListener('click', async () => {
    const out = q('.analysis');
    out.innerHTML = `<p class="muted">${esc(t('study.thinking'))}</p>`;
    const at = rb?.state?.position || current();
    if (!rb && total() !== 48) { out.innerHTML = ''; return; }
    try {
      // The coach's analysis: the same one the hint and the coach's
      // verdicts come from, and the same answer every time it is asked.
      // The browser's engine when it gives the server's answer (docs/WEB.md).
      const r = await coachAnywhere(at, undefined, lang(), undefined, () => api.coach(at, undefined, undefined, lang()));
      out.dataset.engine = r.engine || 'server';
      out.innerHTML = `<p class="muted">${r.depth ? `${esc(t('study.result', { d: r.depth }))} · ` : ''}${esc(t('game.toMove', { side: sideName(r.to_move) }))}</p>
        <table class="list"><tbody>${r.moves.map((m, i) => `<tr class="an-move" data-verdict="${esc(m.verdict)}"><td><strong>${esc(m.move)}</strong>${i === 0 ? ' ★' : ''}</td><td><span class="an-score">${esc(formatScore(m.score))}</span> · <span class="an-verdict">${esc(t(`verdict.${m.verdict}`))}</span></td></tr>
          <tr class="an-line"><td colspan="2" class="mono pv" title="${esc(pvText(m.line))}">${pvText(m.line).split(' · ').slice(0, PV_PAIRS).map((pair) => `<span class="pv-pair">${esc(pair)}</span>`).join(' · ')}</td></tr>`).join('')}</tbody></table>`;
    } catch (e) { out.innerHTML = `<p class="msg bad">${esc(errorText(e))}</p>`; }
  });
  const startGame = async (mode) => {
    try {
      const at = rb?.state?.position || current();
      const body = { mode, position: at, level: mode === 'computer' ? Number(localStorage.getItem('oware.level') || 3) : undefined, side: mode === 'computer' ? (parsePosition(at).toMove) : undefined };
      let r;
      if (offline()) r = await createLocalGame(body);
      else {
        r = await api.createGame(body);
        seats.add(r.id, r.tokens);
      }
      navigate(`/game/${r.id}`);
    } catch (e) { setMsg(q('.check-msg'), errorText(e), 'bad'); }
  };
  q('.as-computer').addEventListener('click', () => startGame('computer'));
  q('.as-hotseat').addEventListener('click', () => startGame('hotseat'));
  sync();
}
