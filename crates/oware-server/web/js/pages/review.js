// Past games, OGN import, and the replay of one game with the engine's
// evaluation of each move.

import { api, seats } from '../api.js';
import { Board } from '../board.js';
import { t, sideName, formatScore, seatName, errorText } from '../i18n.js';
import { esc, navigate, setMsg, relTime, announce, settings } from '../ui.js';
import { resultText, describeTrace, resultParts, resultShort } from '../rulesboard.js';
import { moveListHtml, moveNumber, pvText } from '../moves.js';
import { accountReady, syncMyGames } from '../account.js';
import { localApi, localStore, localTokens, isLocal, localRulesState, localReview, localOgn, ognDownload, importLocalOgn, offline } from '../local.js';
import { nameWithRating } from './lobby.js';
import { tcText } from './game.js';

export function mountList(main) {
  main.innerHTML = `
    <h1>${esc(t('review.title'))}</h1>
    <section class="card mine-card"><h2>${esc(t('review.mine'))}</h2>
      <details class="mine-search" hidden><summary>${esc(t('search.title'))}</summary>
        <form class="stack search-form">
          <label class="field">${esc(t('search.opponent'))} <input name="opponent" maxlength="40" autocomplete="off"></label>
          <label class="field">${esc(t('search.result'))} <select name="result"><option value="">${esc(t('search.any'))}</option>${['won', 'lost', 'drawn', 'ongoing'].map((r) => `<option value="${r}">${esc(t(`search.${r}`))}</option>`).join('')}</select></label>
          <label class="field">${esc(t('search.mode'))} <select name="mode"><option value="">${esc(t('search.any'))}</option>${['online', 'computer', 'hotseat'].map((m) => `<option value="${m}">${esc(t(`mode.${m}`))}</option>`).join('')}</select></label>
          <label class="field">${esc(t('search.from'))} <input type="date" name="from"></label>
          <label class="field">${esc(t('search.to'))} <input type="date" name="to"></label>
          <div class="row"><button class="btn primary" type="submit">${esc(t('search.go'))}</button> <button class="btn" type="reset">${esc(t('search.clear'))}</button></div>
          <p class="msg search-msg" role="status"></p>
        </form>
      </details>
      <div class="mine-list"></div></section>
    <section class="card"><h2>${esc(t('review.public'))}</h2><div class="games-list"></div><p><button class="btn small more" type="button" hidden>…</button></p></section>
    <section class="card">
      <h2>${esc(t('review.import'))}</h2>
      <form class="import-form">
        <textarea name="ogn" aria-label="${esc(t('review.paste'))}" placeholder="${esc(t('review.paste'))}"></textarea>
        <div class="row"><label>${esc(t('review.file'))} <input type="file" name="file" accept=".ogn,.txt,text/plain"></label>
        <button class="btn primary" type="submit">${esc(t('review.importBtn'))}</button></div>
        <div class="msg" role="status"></div>
      </form>
    </section>`;
  const listEl = main.querySelector('.games-list');
  const more = main.querySelector('.more');
  let offset = 0;
  let rows = [];
  async function load() {
    try {
      const r = await api.listGames(30, offset);
      // Finished public online games with moves only (an older server
      // listed every game).
      rows = rows.concat(r.games.filter((g) => g.status === 'over' && g.ply > 0 && g.mode === 'online' && g.public));
      offset += r.games.length;
      more.hidden = offset >= r.total;
      if (!rows.length) { listEl.innerHTML = `<p class="muted">${esc(t('review.none'))}</p>`; return; }
      // Two stacked columns, so the list fits a phone without scrolling.
      listEl.innerHTML = `<table class="list"><tbody>${rows.map((g) => `
        <tr><td>${esc(relTime(g.updated_at))}<br><span class="muted">${esc(t(`mode.${g.mode}`))}</span></td>
        <td>${esc(nameWithRating(g.seats.S, 'S', g.level))} – ${esc(nameWithRating(g.seats.N, 'N', g.level))}<br><span class="muted">${g.rated ? `${esc(t('seek.rated'))} · ` : ''}${g.result ? esc(resultShort(g.result)) : esc(t(`status.${g.status}`))} · ${esc(t(g.ply === 1 ? 'review.plies1' : 'review.plies', { n: g.ply }))}</span></td>
        <td><a class="replay" href="/review/${esc(g.id)}" data-link>${esc(t('review.open'))}</a></td></tr>`).join('')}</tbody></table>`;
    } catch (e) { listEl.innerHTML = `<p class="msg bad">${esc(errorText(e))}</p>`; }
  }
  more.addEventListener('click', load);
  load();
  const mineList = main.querySelector('.mine-list');
  loadMine(mineList);
  // Searching one's games (signed in): the server looks through the
  // latest 1,000 and lists what matches.
  const search = main.querySelector('.mine-search');
  accountReady.then((me) => { search.hidden = !me; });
  const sform = main.querySelector('.search-form');
  sform.addEventListener('submit', async (e) => {
    e.preventDefault();
    const q = Object.fromEntries(['opponent', 'result', 'mode', 'from', 'to'].map((k) => [k, sform[k].value.trim()]));
    const msg = sform.querySelector('.search-msg');
    if (!Object.values(q).some(Boolean)) { loadMine(mineList); setMsg(msg, ''); return; }
    try {
      const r = await api.myGames(q);
      const games = r.games || [];
      setMsg(msg, t(games.length === 1 ? 'search.found1' : 'search.found', { n: games.length }));
      renderMine(mineList, games, true);
    } catch (err) { setMsg(msg, errorText(err), 'bad'); }
  });
  sform.addEventListener('reset', () => { setMsg(sform.querySelector('.search-msg'), ''); loadMine(mineList); });
  const form = main.querySelector('.import-form');
  form.file.addEventListener('change', async () => {
    const f = form.file.files[0];
    if (f) form.ogn.value = await f.text();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      // Offline the record is read by the browser's module (the same
      // reader, the same refusals) and kept on this device.
      let r = null;
      if (!offline()) {
        try {
          r = await api.importOgn(form.ogn.value);
        } catch (err) {
          if (err.code !== 'network') throw err;
        }
      }
      if (!r) r = await importLocalOgn(form.ogn.value);
      navigate(`/review/${r.id}`);
    } catch (err) { setMsg(form.querySelector('.msg'), errorText(err), 'bad'); }
  });
}

/** My games: the signed-in account's games (GET /account/games, with the
 * seats it holds; a game's page gets this device's tokens) and the games
 * this browser holds a seat in (localStorage), ongoing first. */
async function loadMine(el) {
  const me = await accountReady;
  const fromAccount = me ? await syncMyGames(true) : [];
  const byId = new Map(fromAccount.map((g) => [g.id, g]));
  const ids = seats.ids().filter((id) => !byId.has(id)).slice(0, 50);
  let local = [];
  if (ids.length) {
    try {
      // (An older server ignores ?ids= and lists public games: keep mine only.)
      local = ((await api.gamesByIds(ids)).games || []).filter((g) => ids.includes(g.id));
    } catch (_) {
      // An older server without ?ids=: a few games at a time, so a long
      // list does not trip the rate limit.
      const few = ids.slice(0, 20);
      for (let i = 0; i < few.length; i += 4) {
        // eslint-disable-next-line no-await-in-loop
        local.push(...(await Promise.all(few.slice(i, i + 4).map((id) => api.getGame(id).catch(() => null)))).filter(Boolean));
      }
    }
  }
  // Games kept on this device (played offline), until the account has them.
  const kept = (await localStore.all().catch(() => [])).filter((r) => !r.uploaded).slice(0, 50);
  const onDevice = (await Promise.all(kept.map((r) => localApi.getGame(r.id).catch(() => null)))).filter(Boolean);
  if (!el.isConnected) return;
  const games = [...byId.values(), ...local, ...onDevice];
  if (!games.length) { el.innerHTML = `<p class="muted">${esc(t(me ? 'review.myNoneAccount' : 'review.myNone'))}</p>`; return; }
  renderMine(el, games, false);
}

/** The table of my games (`searched`: a search's answer, in its order,
 * without touching the tab's title). */
function renderMine(el, games, searched) {
  if (!el.isConnected) return;
  if (!games.length) { el.innerHTML = `<p class="muted">${esc(t('search.none'))}</p>`; return; }
  const mineOf = (g) => g.mine || (g.local ? Object.keys(localTokens(g)) : ['S', 'N'].filter((s) => seats.get(g.id)[s]));
  // An online game waiting for my move (correspondence above all) comes
  // first, and the tab's title counts them.
  const myTurn = (g) => g.mode === 'online' && g.status === 'playing' && !!g.to_move && mineOf(g).length === 1 && mineOf(g)[0] === g.to_move;
  const rank = (g) => (myTurn(g) ? 0 : g.status === 'over' ? 2 : 1);
  if (!searched) games.sort((a, b) => rank(a) - rank(b) || String(b.updated_at).localeCompare(String(a.updated_at)));
  const turns = games.filter(myTurn).length;
  if (turns && !searched) document.title = `${t('mine.titleTurns', { n: turns })} · Oware`;
  el.innerHTML = `<table class="list"><tbody>${games.map((g) => {
    const mine = mineOf(g);
    const viewer = g.mode !== 'hotseat' && mine.length === 1 ? mine[0] : null;
    const turn = g.mode === 'online' && g.status === 'playing' && viewer && g.to_move ? (g.to_move === viewer ? 'mine.yourTurn' : 'mine.theirTurn') : null;
    const state = g.status === 'over' ? resultParts(g.result, viewer).head : `${t(`status.${g.status}`)} (${g.ply})${g.time_control ? ` · ${tcText(g.time_control)}` : ''}`;
    const link = g.status === 'over' ? `<a class="replay" href="/review/${esc(g.id)}" data-link>${esc(t('review.open'))}</a>` : `<a class="btn small primary" href="/game/${esc(g.id)}" data-link>${esc(t('review.continue'))}</a>`;
    return `<tr class="${g.status === 'over' ? '' : 'ongoing'}"><td>${esc(relTime(g.updated_at))}<br><span class="muted">${esc(t(`mode.${g.mode}`))}${g.local ? ` · ${esc(t('offline.localGame'))}` : ''}</span></td>
      <td>${esc(nameWithRating(g.seats.S, 'S', g.level))} – ${esc(nameWithRating(g.seats.N, 'N', g.level))}<br><span class="muted">${esc(state)}</span>${g.refused ? `<br><span class="msg bad">${esc(t('offline.refused', { why: errorText({ code: g.refused.split('.')[0], reason: g.refused.split('.')[1] }) }))}</span>` : ''}${turn ? ` <span class="pill${turn === 'mine.yourTurn' ? ' your-turn' : ''}">${esc(t(turn))}</span>` : ''}</td><td>${link}</td></tr>`;
  }).join('')}</tbody></table>`;
}

/** A seat's name with its rating, linked to the profile when an account
 * holds it. */
function seatLink(seat, side, level) {
  const text = esc(nameWithRating(seat, side, level));
  return seat?.account && seat.name ? `<a href="/player/${encodeURIComponent(seat.name)}" data-link>${text}</a>` : text;
}

export function mountGame(main, id) {
  let alive = true;
  const cleanupFns = [];
  main.innerHTML = `<p class="muted">${esc(t('game.loading'))}</p>`;
  // A game kept on this device (played offline): replayed by the rules
  // core and reviewed by the engine in the browser's module, the same
  // review (oware-session's) in the same shape as the server's.
  const local = isLocal(id);
  (async () => {
    let game;
    try { game = local ? await localApi.getGame(id) : await api.getGame(id); } catch (e) {
      main.innerHTML = `<h1>${esc(t('game.notfound'))}</h1><p class="msg bad">${esc(errorText(e))}</p>`;
      return;
    }
    if (!alive) return;
    main.innerHTML = `
      <h1>${esc(t('review.game'))}</h1>
      <p class="muted">${seatLink(game.seats.S, 'S', game.level)} – ${seatLink(game.seats.N, 'N', game.level)} · ${esc(t(`mode.${game.mode}`))}${game.rated ? ` · ${esc(t('seek.rated'))}` : ''}${game.result ? ` · ${esc(resultText(game.result))}` : ''}</p>
      ${local && game.uploaded ? `<p class="msg local-note"><a href="/review/${esc(game.uploaded)}" data-link>${esc(t('offline.accountCopy'))}</a></p>` : ''}
      ${local && !game.uploaded && game.imported ? `<p class="msg local-note">${esc(t('offline.imported'))}</p>` : ''}
      <div class="game">
        <section>
          <div class="board-host"></div>
          <div class="row controls" role="group" aria-label="${esc(t('aria.replay'))}">
            <button class="btn first" type="button" aria-label="${esc(t('review.first'))}">◀◀</button>
            <button class="btn prev" type="button" aria-label="${esc(t('review.prev'))}">◀</button>
            <span class="ply-label" aria-live="polite"></span>
            <button class="btn next" type="button" aria-label="${esc(t('review.next'))}">▶</button>
            <button class="btn last" type="button" aria-label="${esc(t('review.last'))}">▶▶</button>
          </div>
          <div class="msg ply-info"></div>
          <svg class="eval-graph" viewBox="0 0 400 80" preserveAspectRatio="none" width="100%" height="80" role="img" aria-label="${esc(t('review.eval'))}"></svg>
          <div class="row"><button class="btn flip-btn" type="button">${esc(t('board.flip'))}</button> <a class="btn study-btn" href="/study" data-link>${esc(t('review.study'))}</a>
          ${local ? `<a class="btn ogn-local" href="#" download="oware-${esc(id)}.ogn">${esc(t('game.ogn'))}</a>` : `<a class="btn" href="${esc(api.ognUrl(id))}" download="oware-${esc(id)}.ogn">${esc(t('game.ogn'))}</a>`}</div>
        </section>
        <aside class="side-panel">
          <div class="card"><h2>${esc(t('review.eval'))}</h2><div class="eval-status muted">${esc(t('review.loadingEval'))}</div><div class="moves-list review-moves"></div></div>
          <div class="card"><h2>OGN</h2><textarea class="ogn-text" readonly aria-label="OGN"></textarea></div>
        </aside>
      </div>`;
    const q = (s) => main.querySelector(s);
    const board = new Board(q('.board-host'), { names: { S: seatName(game.seats.S, 'S', game.level), N: seatName(game.seats.N, 'N', game.level) } });
    q('.flip-btn').addEventListener('click', () => board.setOrientation(board.orientation === 'S' ? 'N' : 'S'));
    const plies = game.plies;
    // The whole game, lost turns (R13, written '-') included: rules/state
    // replays them.
    const n = plies.length;
    const cache = new Map();
    const stateAt = (k) => {
      if (!cache.has(k)) cache.set(k, (local ? localRulesState : api.rulesState)(game.start, plies.slice(0, k).join('')));
      return cache.get(k);
    };
    let k = n;
    let evals = null;
    // Seeds taken by each ply: the game view's (server or module alike).
    let caps = game.captures || [];
    async function show(target, animate) {
      target = Math.max(0, Math.min(n, target));
      const st = await stateAt(target);
      if (!alive) return;
      if (animate && target === k + 1 && st.last) {
        await board.animate({ ...st.last, after: st.position }, { instant: !settings.get('animate') });
        announce(describeTrace(st.last, st.last.move === st.last.move.toUpperCase() ? 'S' : 'N'));
      } else {
        board.setPosition(st.position);
        board.setLastMove(st.last?.move || null);
      }
      k = target;
      q('.ply-label').textContent = t('review.ply', { k, n: plies.length });
      q('.study-btn').setAttribute('href', `/study?position=${encodeURIComponent(st.position)}`);
      renderMoves();
      if (evals) drawGraph(q('.eval-graph'), evals, k);
      const info = q('.ply-info');
      const e = evals?.[k - 1];
      if (e && e.move !== '-') {
        // The coach's verdict on the move (the review is the coach's
        // analysis of each position: the study page says the same).
        const best = e.verdict === 'best';
        const proven = e.score?.kind !== 'value' || e.best_score?.kind !== 'value';
        const loss = proven ? '' : `, ${t('review.loss', { cp: e.loss.toFixed(1) })}`;
        const tone = best || e.verdict === 'good' ? 'ok' : (e.verdict === 'inaccuracy' ? 'warn' : 'bad');
        setMsg(info, `${moveNumber(k - 1)} ${e.move} (${sideName(e.side)}): ${formatScore(e.score)}${best ? ` · ${t('review.good')}` : ` · ${t(`verdict.${e.verdict}`)} · ${t('review.best', { best: e.best })} (${formatScore(e.best_score)})${loss}`}${e.pv ? ` · ${t('review.line')} ${pvText(e.pv)}` : ''}`, tone);
      } else setMsg(info, st.status === 'over' ? resultText(st.result) : '');
    }
    function renderMoves() {
      const ml = q('.review-moves');
      const marks = plies.map((m, i) => {
        const e = evals?.[i];
        return e && e.move !== '-' ? ({ blunder: '??', mistake: '?', inaccuracy: '?!' }[e.verdict] || '') : '';
      });
      ml.innerHTML = moveListHtml(plies, caps, { button: true, current: k, disabledFrom: n, marks });
      for (const b of ml.querySelectorAll('button')) b.addEventListener('click', () => go(Number(b.dataset.k), false));
    }
    // Steps run one after the other: a key pressed during an animation
    // queues the next step instead of being lost.
    let want = k;
    let running = false;
    async function go(target, animate = false) {
      want = Math.max(0, Math.min(n, target));
      if (running) return;
      running = true;
      try {
        while (alive && k !== want) {
          const next = want;
          // eslint-disable-next-line no-await-in-loop
          await show(next, animate && next === k + 1);
        }
      } finally { running = false; }
    }
    q('.eval-graph').addEventListener('click', (e) => {
      const r = e.currentTarget.getBoundingClientRect();
      go(Math.round(((e.clientX - r.left) / r.width) * plies.length));
    });
    q('.first').addEventListener('click', () => go(0));
    q('.prev').addEventListener('click', () => go(want - 1));
    q('.next').addEventListener('click', () => go(want + 1, true));
    q('.last').addEventListener('click', () => go(n));
    const keys = (e) => {
      if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowLeft') { e.preventDefault(); go(want - 1); }
      else if (e.key === 'ArrowRight') { e.preventDefault(); go(want + 1, true); }
      else if (e.key === 'Home') { e.preventDefault(); go(0); }
      else if (e.key === 'End') { e.preventDefault(); go(n); }
    };
    document.addEventListener('keydown', keys);
    cleanupFns.push(() => document.removeEventListener('keydown', keys));
    await show(n);
    if (local) {
      renderMoves();
      // The record is written on this device, by the module.
      ognDownload(q('.ogn-local'), async () => {
        const text = await localOgn(id);
        if (alive) q('.ogn-text').value = text;
        return text;
      });
    } else api.ogn(id).then((text) => {
      if (!alive) return;
      q('.ogn-text').value = text;
    }).catch(() => {});
    try {
      const mine = seats.get(id);
      // A long review can outlast the server's time cap: it answers
      // "busy" and keeps the positions analysed, so asking again goes on.
      let r;
      for (let tries = 0; ; tries += 1) {
        try {
          // eslint-disable-next-line no-await-in-loop
          r = local ? await localReview(id) : await api.review(id, 100, mine.S || mine.N);
          break;
        } catch (err) {
          if (local || err.code !== 'busy' || tries >= 5 || !alive) throw err;
        }
      }
      if (!alive) return;
      evals = r.plies;
      q('.review-moves').dataset.engine = r.engine || 'server';
      q('.eval-status').textContent = '';
      await show(k);
    } catch (e) { q('.eval-status').textContent = errorText(e); }
  })();
  return () => { alive = false; cleanupFns.forEach((f) => f()); };
}

/** South's evaluation after each ply: the light area is South's side of the
 * balance, the dark one North's; the marker is the ply on the board. */
function drawGraph(svg, evals, current) {
  const w = 400, h = 80, n = Math.max(evals.length, 1);
  const y = (v) => h / 2 - Math.max(-1, Math.min(1, v / 1200)) * (h / 2 - 3);
  let last = 0;
  const pts = [[0, y(0)]];
  evals.forEach((e, i) => {
    if (typeof e.eval_south_cp === 'number') last = e.eval_south_cp;
    pts.push([((i + 1) / n) * w, y(last)]);
  });
  const line = pts.map(([x, v]) => `${x.toFixed(1)},${v.toFixed(1)}`).join(' ');
  const cx = ((current || 0) / n) * w;
  svg.innerHTML = `<rect width="${w}" height="${h}" fill="#3b2716"/>
    <polygon points="0,${h} ${line} ${w},${h}" fill="#efe2c4"/>
    <line x1="0" x2="${w}" y1="${h / 2}" y2="${h / 2}" stroke="#a4471c" stroke-width="1" stroke-dasharray="4 3" vector-effect="non-scaling-stroke"/>
    <line x1="${cx}" x2="${cx}" y1="0" y2="${h}" stroke="#1b64d1" stroke-width="2" vector-effect="non-scaling-stroke"/>`;
}
