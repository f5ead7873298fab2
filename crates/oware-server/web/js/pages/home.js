import { t, seatName } from '../i18n.js';
import { esc } from '../ui.js';
import { Board } from '../board.js';
import { api, seats } from '../api.js';

export function mount(main) {
  main.innerHTML = `
    <section class="hero">
      <div>
        <h1>${esc(t('home.title'))}</h1>
        <p class="lead">${esc(t('home.lead'))}</p>
        <div class="row">
          <a class="btn primary" href="/play" data-link>${esc(t('home.play'))}</a>
          <a class="btn" href="/play?mode=hotseat" data-link>${esc(t('home.hotseat'))}</a>
          <a class="btn" href="/lobby" data-link>${esc(t('home.online'))}</a>
          <a class="btn" href="/learn" data-link>${esc(t('home.learn'))}</a>
          <a class="btn" href="/puzzles" data-link>${esc(t('home.puzzles'))}</a>
        </div>
        <div class="resume" hidden></div>
      </div>
      <div class="home-board"></div>
    </section>
    <section class="grid2">
      <div class="card"><h2>${esc(t('nav.learn'))}</h2><p>${esc(t('home.f1'))}</p><a href="/rules" data-link>${esc(t('learn.toRules'))}</a></div>
      <div class="card"><h2>${esc(t('game.aids'))}</h2><p>${esc(t('home.f2'))}</p><a href="/learn" data-link>${esc(t('learn.toLearn'))}</a></div>
      <div class="card"><h2>${esc(t('nav.review'))}</h2><p>${esc(t('home.f3'))}</p><a href="/review" data-link>${esc(t('review.title'))}</a></div>
      <div class="card"><h2>${esc(t('nav.puzzles'))}</h2><p>${esc(t('home.f4'))}</p><a href="/puzzles" data-link>${esc(t('home.puzzles'))}</a> · <a href="/puzzles/daily" data-link>${esc(t('puz.daily'))}</a></div>
    </section>`;
  const b = new Board(main.querySelector('.home-board'), {});
  // A picture of a game under way (display only).
  b.setPosition('5-0-7-2-6-1-3-9-0-4-2-1-3-5-S');
  b.setLastMove('b');
  for (const h of b.houses) h.tabIndex = -1;
  showResume(main.querySelector('.resume'));
}

/** A game this browser is still playing (among the last three it joined),
 * to take up again from the home page. */
async function showResume(el) {
  for (const id of seats.ids().slice(0, 3)) {
    // eslint-disable-next-line no-await-in-loop
    const g = await api.getGame(id).catch(() => null);
    if (!g || g.status === 'over' || !el.isConnected) continue;
    const mine = seats.get(id);
    const turn = g.status === 'playing' && mine[g.to_move] ? ` · ${t('game.yourTurn')}` : '';
    el.innerHTML = `<p class="msg ok"><a href="/game/${esc(id)}" data-link>${esc(t('review.continue'))}</a>: ${esc(seatName(g.seats.S, 'S', g.level))} – ${esc(seatName(g.seats.N, 'N', g.level))}${esc(turn)}</p>`;
    el.hidden = false;
    return;
  }
}
