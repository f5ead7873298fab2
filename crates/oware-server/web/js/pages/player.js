// /player/{name}: a player's ratings, rating history (an SVG graph drawn
// here) and finished games; /ratings: the leaderboard of each class.

import { api } from '../api.js';
import { t, errorText, seatName } from '../i18n.js';
import { esc, relTime } from '../ui.js';
import { ratingText, currentUser } from '../account.js';
import { onInbox } from '../inbox.js';
import { CLASSES } from './account.js';
import { resultShort } from '../rulesboard.js';

const COLOURS = { fast: '#a4471c', slow: '#2e6b34', per_move: '#1b64d1', correspondence: '#7a3e9d' };
const START = 1500;
const SVG = 'http://www.w3.org/2000/svg';

/** A link to a player's profile (names are [A-Za-z0-9_-]; escaped anyway). */
export const playerLink = (name) => `<a href="/player/${encodeURIComponent(name)}" data-link>${esc(name)}</a>`;

export function mountProfile(main, name) {
  let alive = true;
  let offInbox = null;
  main.innerHTML = `<p class="muted">…</p>`;
  (async () => {
    let p;
    try { p = await api.player(name); } catch (e) {
      if (!alive) return;
      main.innerHTML = `<h1>${esc(name)}</h1><p class="msg bad">${esc(e.code === 'not_found' ? t('player.notFound') : errorText(e))}</p>`;
      return;
    }
    if (!alive) return;
    document.title = `${p.username} · Oware`;
    const me = currentUser()?.username?.toLowerCase() === p.username.toLowerCase();
    main.innerHTML = `
      <h1 class="player-name"></h1>
      <p class="muted">${esc(t('player.since', { when: relTime(p.created_at) }))}${me ? ` · <a href="/account" data-link>${esc(t('account.settings'))}</a>` : ''}</p>
      <p class="presence"><span class="dot${p.online ? ' on' : ''}" aria-hidden="true"></span> ${esc(t(p.online ? 'player.online' : 'player.offline'))}${p.playing ? ` · <a href="/game/${encodeURIComponent(p.playing)}" data-link class="playing-link">${esc(t('player.playingNow'))}</a>` : ''}</p>
      ${currentUser() && !me ? `<section class="card relate-card">
        <div class="row"><button class="btn primary challenge-btn" type="button" aria-expanded="false">${esc(t('challenge.button'))}</button>
        <button class="btn follow-btn" type="button" aria-pressed="false"></button>
        <button class="btn block-btn" type="button" aria-pressed="false"></button>
        <button class="btn report-btn" type="button" aria-expanded="false">${esc(t('player.report'))}</button></div>
        <form class="challenge-form" hidden novalidate>
          <label>${esc(t('challenge.time'))} <select name="tc">
            ${TCS.map(([k], i) => `<option value="${i}">${esc(tcOption(k))}</option>`).join('')}
          </select></label>
          <label>${esc(t('challenge.side'))} <select name="side">
            <option value="">${esc(t('challenge.sideRandom'))}</option><option value="S">${esc(t('side.S'))}</option><option value="N">${esc(t('side.N'))}</option>
          </select></label>
          <label class="choice"><input type="checkbox" name="rated"> ${esc(t('challenge.ratedBox'))}</label>
          <p class="row"><button class="btn primary" type="submit">${esc(t('challenge.send'))}</button>
          <button class="btn chl-withdraw" type="button" hidden>${esc(t('challenge.withdraw'))}</button></p>
        </form>
        <form class="report-form" hidden novalidate>
          <fieldset><legend>${esc(t('player.reportWhy'))}</legend>
            ${['cheating', 'abuse', 'other'].map((r, i) => `<label class="choice"><input type="radio" name="reason" value="${r}"${i === 0 ? ' checked' : ''}> ${esc(t(`player.reason.${r}`))}</label>`).join('')}
          </fieldset>
          <label>${esc(t('player.reportDetails'))}<textarea name="details" maxlength="500" rows="3"></textarea></label>
          <p><button class="btn primary" type="submit">${esc(t('player.reportSend'))}</button></p>
        </form>
        <div class="msg relate-msg" role="status"></div>
      </section>` : ''}
      <section class="card">
        <h2>${esc(t('account.ratings'))}</h2>
        <table class="list ratings-table"><thead><tr><th>${esc(t('player.class'))}</th><th>${esc(t('player.rating'))}</th><th>${esc(t('player.games'))}</th></tr></thead><tbody>
        ${CLASSES.map((c) => {
          const r = p.ratings.find((x) => x.class === c);
          return `<tr data-class="${c}"><td>${esc(t(`class.${c}`))}</td><td class="rating-cell"><strong>${esc(ratingText(r) || '—')}</strong>${r ? ` <span class="muted">± ${esc(r.deviation)}</span>` : ''}</td><td>${esc(r?.games ?? 0)}</td></tr>`;
        }).join('')}
        <tr class="puzzle-rating"><td>${esc(t('player.puzzles'))}</td><td class="rating-cell"><strong>${esc(ratingText(p.puzzles) || '—')}</strong>${p.puzzles ? ` <span class="muted">± ${esc(p.puzzles.deviation)}</span>` : ''}</td><td>${p.puzzles ? esc(t('player.puzzlesTried', { tried: p.puzzles.tried, solved: p.puzzles.solved })) : '0'}</td></tr></tbody></table>
        <p class="muted small-print">${esc(t('player.provisional'))}</p>
      </section>
      <section class="card">
        <h2>${esc(t('player.history'))}</h2>
        <div class="history-graph"></div>
      </section>
      <section class="card">
        <h2>${esc(t('player.finished'))}</h2>
        <div class="player-games"></div>
      </section>`;
    // The name as text: whatever the server sends is never markup.
    main.querySelector('.player-name').textContent = p.username;
    drawHistory(main.querySelector('.history-graph'), p.history || []);
    if (currentUser() && !me) {
      wireRelations(main, p.username, () => alive);
      offInbox = wireChallenge(main, p.username, () => alive);
    }
    listGames(main.querySelector('.player-games'), p.games || [], p.username);
  })();
  return () => { alive = false; offInbox?.(); };
}

// The time controls a challenge offers: a clock, limits per move, days.
const TCS = [
  ['5+3', { initial_ms: 300000, increment_ms: 3000 }],
  ['10+5', { initial_ms: 600000, increment_ms: 5000 }],
  ['3+2', { initial_ms: 180000, increment_ms: 2000 }],
  ['30s', { per_move_ms: 30000 }],
  ['3d', { days_per_move: 3 }],
  ['none', null],
];
const tcOption = (k) => {
  const tc = TCS.find(([key]) => key === k)[1];
  if (!tc) return t('play.none');
  if (tc.per_move_ms) return t('tc.permove', { s: tc.per_move_ms / 1000 });
  if (tc.days_per_move) return t('tc.days', { n: tc.days_per_move });
  return t('tc.clock', { m: tc.initial_ms / 60000, i: tc.increment_ms / 1000 });
};

/** The "Challenge" button and form on another player's profile; the
 * answer comes live (inbox.js takes the challenger to the game when it is
 * accepted). Returns the function that stops listening. */
function wireChallenge(main, username, alive) {
  const q = (s) => main.querySelector(s);
  const form = q('.challenge-form');
  const msg = q('.relate-msg');
  const withdraw = q('.chl-withdraw');
  let sent = null;
  const say = (text, kind) => { msg.textContent = text; msg.className = `msg relate-msg ${kind}`; };
  q('.challenge-btn').addEventListener('click', () => {
    form.hidden = !form.hidden;
    q('.challenge-btn').setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) form.tc.focus();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const tc = TCS[Number(form.tc.value)][1];
    const body = { time_control: tc || undefined, rated: form.rated.checked && !!tc, side: form.side.value || undefined };
    try {
      const r = await api.challenge(username, body);
      if (!alive()) return;
      sent = r.id;
      withdraw.hidden = false;
      say(t('challenge.sent', { name: username }), 'ok');
    } catch (err) { if (alive()) say(errorText(err), 'bad'); }
  });
  withdraw.addEventListener('click', async () => {
    if (!sent) return;
    try { await api.cancelChallenge(sent); } catch (err) { say(errorText(err), 'bad'); return; }
    sent = null;
    withdraw.hidden = true;
    say(t('challenge.withdrawn'), 'ok');
  });
  return onInbox((m) => {
    const c = m.type === 'challenge' && m.challenge;
    if (!c || c.id !== sent || !alive()) return;
    if (c.status === 'declined') { say(t('challenge.declined', { name: username }), 'bad'); withdraw.hidden = true; sent = null; }
    if (c.status === 'accepted') say(t('challenge.accepted', { name: username }), 'ok');
  });
}

/** Follow, block and report buttons on another player's profile. */
async function wireRelations(main, username, alive) {
  const q = (s) => main.querySelector(s);
  const msg = q('.relate-msg');
  const key = username.toLowerCase();
  let rel = { following: [], blocked: [] };
  const show = () => {
    const following = rel.following.some((f) => f.username.toLowerCase() === key);
    const blocked = rel.blocked.some((b) => b.toLowerCase() === key);
    q('.follow-btn').textContent = t(following ? 'player.unfollow' : 'player.follow');
    q('.follow-btn').setAttribute('aria-pressed', String(following));
    q('.follow-btn').disabled = blocked;
    q('.block-btn').textContent = t(blocked ? 'player.unblock' : 'player.block');
    q('.block-btn').setAttribute('aria-pressed', String(blocked));
    return { following, blocked };
  };
  try { rel = await api.relations(); } catch (_) { /* buttons still work */ }
  if (!alive()) return;
  show();
  const act = async (fn, done) => {
    try { rel = await fn(); if (alive()) { show(); msg.textContent = done ? t(done, { name: username }) : ''; msg.className = 'msg relate-msg ok'; } } catch (e) { if (alive()) { msg.textContent = errorText(e); msg.className = 'msg relate-msg bad'; } }
  };
  q('.follow-btn').addEventListener('click', () => { const { following } = show(); act(() => api.follow(username, !following), following ? null : 'player.followed'); });
  q('.block-btn').addEventListener('click', () => {
    const { blocked } = show();
    if (!blocked && !window.confirm(t('player.blockConfirm', { name: username }))) return;
    act(() => api.block(username, !blocked), blocked ? 'player.unblocked' : 'player.blocked');
  });
  const form = q('.report-form');
  q('.report-btn').addEventListener('click', () => {
    form.hidden = !form.hidden;
    q('.report-btn').setAttribute('aria-expanded', String(!form.hidden));
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api.report(username, form.reason.value, form.details.value);
      form.hidden = true;
      form.reset();
      q('.report-btn').setAttribute('aria-expanded', 'false');
      msg.textContent = t('player.reported');
      msg.className = 'msg relate-msg ok';
    } catch (err) { msg.textContent = errorText(err); msg.className = 'msg relate-msg bad'; }
  });
}

/** The seat a player held in a game (by name), or null. */
function seatOf(g, username) {
  const k = username.toLowerCase();
  return ['S', 'N'].find((s) => String(g.seats?.[s]?.name || '').toLowerCase() === k) || null;
}

function listGames(el, games, username) {
  if (!games.length) { el.innerHTML = `<p class="muted">${esc(t('player.noGames'))}</p>`; return; }
  el.innerHTML = `<table class="list"><tbody>${games.map((g) => {
    const side = seatOf(g, username);
    const opp = side ? (side === 'S' ? 'N' : 'S') : null;
    const w = g.result?.winner;
    const outcome = !w || !side ? '' : w === 'draw' ? t('player.draw') : w === side ? t('player.won') : t('player.lost');
    const score = resultShort(g.result);
    const oppSeat = opp && g.seats[opp];
    const oppName = oppSeat?.account && oppSeat.name ? playerLink(oppSeat.name) : esc(seatName(oppSeat, opp, g.level));
    return `<tr><td>${esc(relTime(g.updated_at))}<br><span class="muted">${esc(g.rated ? t('seek.rated') : t(`mode.${g.mode}`))}</span></td>
      <td>${opp ? `${esc(t('player.vs'))} ${oppName}` : `${esc(seatName(g.seats.S, 'S', g.level))} – ${esc(seatName(g.seats.N, 'N', g.level))}`}<br><span class="muted">${esc(outcome)}${outcome ? ' · ' : ''}${esc(score)}</span></td>
      <td><a class="replay" href="/review/${esc(g.id)}" data-link>${esc(t('review.open'))}</a></td></tr>`;
  }).join('')}</tbody></table>`;
}

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/** The rating after each game, one line per class, from the starting
 * rating; x is the number of games in that class. */
export function drawHistory(host, history) {
  const series = CLASSES.map((c) => ({ c, pts: [START, ...history.filter((h) => h.class === c).map((h) => h.rating)] }))
    .filter((s) => s.pts.length > 1);
  if (!series.length) { host.innerHTML = `<p class="muted">${esc(t('player.noHistory'))}</p>`; return; }
  const W = 360, H = 200, L = 48, R = 10, T = 12, B = 30;
  const all = series.flatMap((s) => s.pts);
  let lo = Math.min(...all), hi = Math.max(...all);
  const pad = Math.max(25, (hi - lo) * 0.1);
  lo -= pad; hi += pad;
  const step = [25, 50, 100, 200, 250, 500].find((s) => (hi - lo) / s <= 5) || 1000;
  lo = Math.floor(lo / step) * step; hi = Math.ceil(hi / step) * step;
  const n = Math.max(...series.map((s) => s.pts.length)) - 1;
  const x = (i) => L + (n ? (i / n) * (W - L - R) : 0);
  const y = (r) => T + (1 - (r - lo) / (hi - lo)) * (H - T - B);
  const summary = series.map((s) => `${t(`class.${s.c}`)}: ${s.pts.map((r) => Math.round(r)).join(' → ')}`).join('; ');
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'history', role: 'img', 'aria-label': `${t('player.history')}. ${summary}` });
  for (let r = lo; r <= hi; r += step) {
    svg.append(el('line', { x1: L, x2: W - R, y1: y(r), y2: y(r), class: 'grid' }));
    svg.append(el('text', { x: L - 6, y: y(r) + 4, 'text-anchor': 'end', class: 'axis' }, String(r)));
  }
  svg.append(el('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis' }, t('player.gamesAxis')));
  for (const s of series) {
    svg.append(el('polyline', { points: s.pts.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(' '), fill: 'none', stroke: COLOURS[s.c], 'stroke-width': 2.5, class: `line-${s.c}` }));
    s.pts.forEach((r, i) => {
      const dot = el('circle', { cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: 3.5, fill: COLOURS[s.c] });
      dot.append(el('title', {}, `${t(`class.${s.c}`)} ${Math.round(r)}`));
      svg.append(dot);
    });
  }
  const legend = document.createElement('p');
  legend.className = 'legend';
  for (const s of series) {
    const item = document.createElement('span');
    const sw = document.createElement('i');
    sw.style.background = COLOURS[s.c];
    item.append(sw, `${t(`class.${s.c}`)} ${Math.round(s.pts[s.pts.length - 1])}`);
    legend.append(item);
  }
  host.replaceChildren(svg, legend);
}

export function mountRatings(main) {
  const params = new URLSearchParams(location.search);
  let cls = CLASSES.includes(params.get('class')) ? params.get('class') : 'slow';
  let alive = true;
  main.innerHTML = `
    <h1>${esc(t('ratings.title'))}</h1>
    <div class="row tabs" role="group" aria-label="${esc(t('player.class'))}">${CLASSES.map((c) => `<button class="btn class-btn" type="button" data-class="${c}">${esc(t(`class.${c}`))}</button>`).join('')}</div>
    <p class="muted class-what"></p>
    <section class="card"><div class="board-list" aria-live="polite"></div></section>
    <p class="muted small-print">${esc(t('ratings.note'))}</p>`;
  const list = main.querySelector('.board-list');
  async function show() {
    for (const b of main.querySelectorAll('.class-btn')) b.setAttribute('aria-pressed', String(b.dataset.class === cls));
    main.querySelector('.class-what').textContent = t(`class.${cls}.what`);
    list.innerHTML = `<p class="muted">…</p>`;
    try {
      const r = await api.ratings(cls, 50);
      if (!alive) return;
      const players = r.players || [];
      if (!players.length) { list.innerHTML = `<p class="muted">${esc(t('ratings.empty'))}</p>`; return; }
      list.innerHTML = `<table class="list leaderboard"><thead><tr><th>#</th><th>${esc(t('player.player'))}</th><th>${esc(t('player.rating'))}</th><th>${esc(t('player.games'))}</th></tr></thead><tbody>${players.map((p) => `
        <tr${p.provisional ? ' class="provisional"' : ''}><td>${p.provisional ? '–' : esc(p.rank)}</td><td>${playerLink(p.username)}</td><td><strong>${esc(ratingText(p))}</strong></td><td>${esc(p.games)}</td></tr>`).join('')}</tbody></table>${players.some((p) => p.provisional) ? `<p class="muted small-print">${esc(t('ratings.provisional'))}</p>` : ''}`;
    } catch (e) { if (alive) list.innerHTML = `<p class="msg bad">${esc(errorText(e))}</p>`; }
  }
  for (const b of main.querySelectorAll('.class-btn')) {
    b.addEventListener('click', () => {
      cls = b.dataset.class;
      history.replaceState(null, '', `/ratings?class=${cls}`);
      show();
    });
  }
  show();
  return () => { alive = false; };
}
