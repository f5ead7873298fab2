// Watch: the public online games being played now, with the best-rated
// one shown large and kept live (TV). Polls the server: the list every
// 10 s, the featured game every 2 s, only while the page is shown.

import { api } from '../api.js';
import { Board } from '../board.js';
import { t, errorText, seatName } from '../i18n.js';
import { esc, relTime } from '../ui.js';
import { nameWithRating } from './lobby.js';
import { tcText, clockText } from './game.js';

const LIST_EVERY = 10000;
const TV_EVERY = 2000;

export function mount(main) {
  main.innerHTML = `
    <h1>${esc(t('watch.title'))}</h1>
    <section class="card tv-card" hidden>
      <h2>${esc(t('watch.featured'))}</h2>
      <p class="tv-players"></p>
      <div class="board-host"></div>
      <p class="tv-status muted" aria-live="polite"></p>
      <p><a class="btn primary tv-open" href="/" data-link>${esc(t('watch.open'))}</a></p>
    </section>
    <section class="card">
      <h2>${esc(t('watch.now'))}</h2>
      <div class="watch-list"><p class="muted">${esc(t('game.loading'))}</p></div>
    </section>`;
  const q = (s) => main.querySelector(s);
  let alive = true;
  let featured = null;
  let board = null;
  const timers = [];

  async function loadList() {
    let w;
    try { w = await api.watch(); } catch (e) {
      if (alive) q('.watch-list').innerHTML = `<p class="msg bad">${esc(errorText(e))}</p>`;
      return;
    }
    if (!alive) return;
    const games = w.games || [];
    q('.watch-list').innerHTML = games.length
      ? `<table class="list"><tbody>${games.map((g) => `<tr data-id="${esc(g.id)}"><td>${esc(nameWithRating(g.seats.S, 'S'))} – ${esc(nameWithRating(g.seats.N, 'N'))}<br>
          <span class="muted">${esc([g.rated ? t('seek.rated') : t('seek.casual'), g.time_control ? tcText(g.time_control) : t('tc.none'), t(g.ply === 1 ? 'review.plies1' : 'review.plies', { n: g.ply })].join(' · '))}</span></td>
          <td><a class="btn small" href="/game/${esc(g.id)}" data-link>${esc(t('watch.watch'))}</a></td></tr>`).join('')}</tbody></table>`
      : `<p class="muted">${esc(t('watch.none'))}</p><p><a class="btn" href="/lobby" data-link>${esc(t('watch.toLobby'))}</a></p>`;
    if (w.featured !== featured) {
      featured = w.featured;
      board = null;
      q('.tv-card').hidden = !featured;
      q('.board-host').replaceChildren();
      if (featured) await loadFeatured();
    }
  }

  async function loadFeatured() {
    if (!featured) return;
    let g;
    try { g = await api.getGame(featured); } catch (_) { return; }
    if (!alive || g.id !== featured) return;
    const names = { S: seatName(g.seats.S, 'S', g.level), N: seatName(g.seats.N, 'N', g.level) };
    if (!board) board = new Board(q('.board-host'), { names, small: true });
    board.setNames(names);
    board.setPosition(g.position);
    board.setLastMove(g.last?.move || null);
    q('.tv-players').textContent = `${nameWithRating(g.seats.S, 'S')} – ${nameWithRating(g.seats.N, 'N')}${g.time_control ? ` · ${tcText(g.time_control)}` : ''}`;
    const clock = g.clock ? ` · ${clockText(g.to_move === 'S' ? g.clock.south_ms : g.clock.north_ms)}` : '';
    q('.tv-status').textContent = g.status === 'over'
      ? t('watch.ended')
      : `${t('watch.toMove', { name: names[g.to_move] })}${clock} · ${t('watch.lastMove', { when: relTime(g.updated_at) })}`;
    q('.tv-open').setAttribute('href', `/game/${g.id}`);
  }

  loadList();
  timers.push(setInterval(() => { if (!document.hidden) loadList(); }, LIST_EVERY));
  timers.push(setInterval(() => { if (!document.hidden) loadFeatured(); }, TV_EVERY));
  return () => { alive = false; timers.forEach(clearInterval); };
}
