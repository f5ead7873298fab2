// Online play: create a game (invite link, optionally listed) and the lobby.

import { api, seats } from '../api.js';
import { t, sideName, seatName, errorText } from '../i18n.js';
import { esc, navigate, setMsg, relTime } from '../ui.js';
import { timeControlFields, wireTimeControl, readTimeControl } from './play.js';
import { tcText } from './game.js';
import { currentUser, ratingClass, ratingText, myRating } from '../account.js';

/** "Ama (1500?)": a seat's name with its rating when it has one. */
export function nameWithRating(seat, side, level) {
  const r = ratingText(seat?.rating);
  return r ? `${seatName(seat, side, level)} (${r})` : seatName(seat, side, level);
}

/** "1400–1700", "≥ 1400", "≤ 1700" or '' for a seek's rating range. */
export function rangeText(range) {
  if (!range) return '';
  // The ends of the scale (0 and 4000) are open ends.
  const lo = range.min > 0 ? range.min : null, hi = range.max < 4000 ? range.max : null;
  if (lo != null && hi != null) return t('seek.range', { min: lo, max: hi });
  if (lo != null) return t('seek.min', { min: lo });
  return hi != null ? t('seek.max', { max: hi }) : '';
}

/** Whether the signed-in player's rating in `cls` is within `range` (an
 * account without a game in the class starts at 1500, as on the server). */
function inRange(range, cls) {
  const r = myRating(cls)?.rating ?? 1500;
  return Math.round(r) >= range.min && Math.round(r) <= range.max;
}

export function mount(main) {
  const me = currentUser();
  // The open games come first: on a phone they are the top of the page,
  // not below the whole form.
  main.innerHTML = `
    <h1>${esc(t('online.title'))}</h1>
    <div class="grid2">
      <section class="card lobby-card"><h2>${esc(t('online.lobby'))}</h2><p class="muted online-count" aria-live="polite"></p><div class="lobby-list" aria-live="polite"></div><div class="msg lobby-msg"></div></section>
      <form class="card create-online" novalidate>
        <h2>${esc(t('online.create'))}</h2>
        <p class="muted small-print">${esc(t('seek.what'))}</p>
        ${me ? `<p class="playing-as">${esc(t('seek.as', { name: me.username }))}</p>`
    : `<label class="field">${esc(t('play.name'))} <input type="text" name="name" maxlength="40" value="${esc(localStorage.getItem('oware.name') || '')}"></label>`}
        <fieldset><legend>${esc(t('play.side'))}</legend>
          <label class="choice"><input type="radio" name="side" value="random" checked> ${esc(t('play.random'))}</label>
          <label class="choice"><input type="radio" name="side" value="S"> ${esc(t('play.sideS'))}</label>
          <label class="choice"><input type="radio" name="side" value="N"> ${esc(t('play.sideN'))}</label>
        </fieldset>
        ${timeControlFields('o', { correspondence: true })}
        <fieldset><legend>${esc(t('seek.kind'))}</legend>
          <label class="choice"><input type="radio" name="rated" value="casual" checked> ${esc(t('seek.casual'))}</label>
          <label class="choice"><input type="radio" name="rated" value="rated" ${me ? '' : 'disabled'}> ${esc(t('seek.rated'))}</label>
          ${me ? '' : `<p class="muted small-print">${esc(t('seek.signInFor'))} <a href="/account?next=/lobby" data-link>${esc(t('nav.signin'))}</a></p>`}
          <p class="muted small-print rated-class" hidden></p>
        </fieldset>
        <label class="choice"><input type="checkbox" name="public" checked> ${esc(t('online.public'))}</label>
        ${me ? `<label class="choice"><input type="checkbox" name="accountsOnly"> ${esc(t('seek.accountsOnly'))}</label>` : ''}
        <fieldset class="range-box"><legend>${esc(t('seek.rangeLegend'))}</legend>
          <div class="row"><label class="field inline">${esc(t('seek.from'))} <input type="number" name="rmin" min="0" max="4000" step="50" inputmode="numeric"></label>
          <label class="field inline">${esc(t('seek.to'))} <input type="number" name="rmax" min="0" max="4000" step="50" inputmode="numeric"></label></div>
          <p class="muted small-print my-rating"></p>
        </fieldset>
        <p><button class="btn primary" type="submit">${esc(t('online.create'))}</button></p>
        <div class="msg" role="status"></div>
      </form>
    </div>`;
  const form = main.querySelector('form');
  wireTimeControl(form, 'o');
  // The class a rated game would count in, and the player's rating there.
  const upd = () => {
    const cls = ratingClass(readTimeControl(form, 'o'));
    const rated = form.querySelector('[name=rated]:checked').value === 'rated';
    // A rated game always has a deadline (a player who leaves loses on
    // time): no "none" while rated, a slow clock offered instead.
    const none = form.querySelector('[name=otc][value=none]');
    if (rated && none.checked) {
      const clock = form.querySelector('[name=otc][value=clock]');
      clock.checked = true;
      form.omin.value = 10;
      form.oinc.value = 5;
      clock.dispatchEvent(new Event('change'));
      return upd();
    }
    none.disabled = rated;
    const rc = form.querySelector('.rated-class');
    rc.hidden = !rated;
    rc.textContent = `${t('seek.countsIn', { cls: t(`class.${cls}`) })} ${t('seek.ratedClock')}`;
    // A rating range is for rated seeks (listed in the lobby).
    form.querySelector('.range-box').hidden = !(form.public.checked && rated);
    const mine = ratingText(myRating(cls));
    form.querySelector('.my-rating').textContent = mine ? t('seek.yourRating', { cls: t(`class.${cls}`), r: mine }) : '';
  };
  form.addEventListener('input', upd);
  form.addEventListener('change', upd);
  upd();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = form.querySelector('[name=name]')?.value.trim();
    if (name) localStorage.setItem('oware.name', name);
    const num = (v) => (v === '' ? null : Number(v));
    const min = num(form.rmin.value), max = num(form.rmax.value);
    const rated = form.querySelector('[name=rated]:checked').value === 'rated';
    // An open end of the range is the end of the scale (0 or 4000).
    const range = rated && form.public.checked && (min != null || max != null) ? { min: min ?? 0, max: max ?? 4000 } : undefined;
    if (range && !(Number.isInteger(range.min) && Number.isInteger(range.max) && range.min >= 0 && range.max <= 4000 && range.min <= range.max)) {
      setMsg(form.querySelector('.msg'), t('seek.rangeBad'), 'bad');
      return;
    }
    try {
      const r = await api.createGame({
        mode: 'online', name: me ? undefined : (name || undefined), side: form.querySelector('[name=side]:checked').value,
        time_control: readTimeControl(form, 'o'), public: form.public.checked,
        rated: rated || undefined,
        rating_range: range,
        accounts_only: form.accountsOnly?.checked || undefined,
      });
      seats.add(r.id, r.tokens);
      if (r.you && form.querySelector('[name=side]:checked').value === 'random') sessionStorage.setItem(`oware.drawn.${r.id}`, r.you);
      if (r.invite_url) localStorage.setItem(`oware.invite.${r.id}`, r.invite_url);
      navigate(`/game/${r.id}`);
    } catch (err) { setMsg(form.querySelector('.msg'), errorText(err), 'bad'); }
  });

  const list = main.querySelector('.lobby-list');
  let alive = true;
  let last = '';
  async function refresh() {
    try {
      const { games, online } = await api.lobby();
      if (!alive) return;
      if (online != null) main.querySelector('.online-count').textContent = t(online === 1 ? 'online.players1' : 'online.players', { n: online });
      let html;
      if (!games.length) html = `<p class="muted">${esc(t('online.empty'))}</p>`;
      else {
        html = `<table class="list seeks"><tbody>${games.map((g) => {
          const side = g.seats.S?.taken ? 'S' : 'N';
          const seat = g.seats[side];
          const cls = ratingClass(g.time_control);
          // (A server that does not say whether a game is rated says nothing here.)
          const kind = g.rated == null ? '' : g.rated ? t('seek.ratedIn', { cls: t(`class.${cls}`) }) : t('seek.casual');
          const bits = [kind, g.time_control ? tcText(g.time_control) : t('tc.none'), rangeText(g.rating_range)].filter(Boolean);
          let action;
          if (Object.keys(seats.get(g.id)).length) action = `<a class="btn small" href="/game/${esc(g.id)}" data-link>${esc(t('seek.yours'))}</a>`;
          else if (g.rated && !currentUser()) action = `<a class="btn small" href="/account?next=/lobby" data-link>${esc(t('nav.signin'))}</a>`;
          else if (g.rated && g.rating_range && !inRange(g.rating_range, cls)) {
            // The server would refuse (out_of_range): say why instead of Join.
            action = `<span class="muted small-print why-not">${esc(t('seek.outOfRange', { range: rangeText(g.rating_range), r: ratingText(myRating(cls)) || '1500?' }))}</span>`;
          } else action = `<button class="btn small primary join" type="button" data-id="${esc(g.id)}">${esc(t('online.join'))}</button>`;
          return `<tr data-id="${esc(g.id)}"><td><span class="seek-name">${esc(t('online.by', { name: nameWithRating(seat, side) }))}</span><br><span class="muted">${esc(bits.join(' · '))}</span><br><span class="muted">${esc(t('online.waits', { side: sideName(side === 'S' ? 'N' : 'S') }))} · ${esc(relTime(g.created_at))}</span></td>
            <td>${action}</td></tr>`;
        }).join('')}</tbody></table>`;
      }
      // Redraw only when something changed, so a tap is not lost mid-refresh.
      if (html === last) return;
      last = html;
      list.innerHTML = html;
      for (const b of list.querySelectorAll('.join')) {
        b.addEventListener('click', async () => {
          try {
            const r = await api.join(b.dataset.id, undefined, currentUser() ? undefined : (localStorage.getItem('oware.name') || undefined));
            seats.add(r.id, { [r.you]: r.token });
            navigate(`/game/${r.id}`);
          } catch (err) { setMsg(main.querySelector('.lobby-msg'), errorText(err), 'bad'); refresh(); }
        });
      }
    } catch (err) { setMsg(main.querySelector('.lobby-msg'), errorText(err), 'bad'); }
  }
  refresh();
  const timer = setInterval(refresh, 4000);
  return () => { alive = false; clearInterval(timer); };
}
