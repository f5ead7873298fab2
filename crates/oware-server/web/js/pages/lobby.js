// Online play: create a game (invite link, optionally listed) and the lobby.

import { api, seats } from '../api.js';
import { t, sideName, seatName, errorText } from '../i18n.js';
import { esc, navigate, setMsg, relTime } from '../ui.js';
import { timeControlFields, wireTimeControl, readTimeControl } from './play.js';
import { tcText } from './game.js';

export function mount(main) {
  main.innerHTML = `
    <h1>${esc(t('online.title'))}</h1>
    <div class="grid2">
      <form class="card create-online" novalidate>
        <h2>${esc(t('online.create'))}</h2>
        <label>${esc(t('play.name'))} <input type="text" name="name" maxlength="40" value="${esc(localStorage.getItem('oware.name') || '')}"></label>
        <fieldset><legend>${esc(t('play.side'))}</legend>
          <label class="choice"><input type="radio" name="side" value="random" checked> ${esc(t('play.random'))}</label>
          <label class="choice"><input type="radio" name="side" value="S"> ${esc(t('play.sideS'))}</label>
          <label class="choice"><input type="radio" name="side" value="N"> ${esc(t('play.sideN'))}</label>
        </fieldset>
        ${timeControlFields('o')}
        <label class="choice"><input type="checkbox" name="public" checked> ${esc(t('online.public'))}</label>
        <p><button class="btn primary" type="submit">${esc(t('online.create'))}</button></p>
        <div class="msg" role="status"></div>
      </form>
      <section class="card"><h2>${esc(t('online.lobby'))}</h2><div class="lobby-list" aria-live="polite"></div><div class="msg lobby-msg"></div></section>
    </div>`;
  const form = main.querySelector('form');
  wireTimeControl(form, 'o');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = form.name.value.trim();
    if (name) localStorage.setItem('oware.name', name);
    try {
      const r = await api.createGame({
        mode: 'online', name: name || undefined, side: form.querySelector('[name=side]:checked').value,
        time_control: readTimeControl(form, 'o'), public: form.public.checked,
      });
      seats.add(r.id, r.tokens);
      if (r.you && form.querySelector('[name=side]:checked').value === 'random') sessionStorage.setItem(`oware.drawn.${r.id}`, r.you);
      if (r.invite_url) localStorage.setItem(`oware.invite.${r.id}`, r.invite_url);
      navigate(`/game/${r.id}`);
    } catch (err) { setMsg(form.querySelector('.msg'), errorText(err), 'bad'); }
  });

  const list = main.querySelector('.lobby-list');
  let alive = true;
  async function refresh() {
    try {
      const { games } = await api.lobby();
      if (!alive) return;
      if (!games.length) { list.innerHTML = `<p class="muted">${esc(t('online.empty'))}</p>`; return; }
      list.innerHTML = `<table class="list"><tbody>${games.map((g) => {
        const side = g.seats.S?.taken ? 'S' : 'N';
        return `<tr><td>${esc(t('online.by', { name: seatName(g.seats[side], side) }))}<br><span class="muted">${esc(t('online.waits', { side: sideName(side === 'S' ? 'N' : 'S') }))} · ${esc(tcText(g.time_control))} · ${esc(relTime(g.created_at))}</span></td>
          <td><button class="btn small join" type="button" data-id="${esc(g.id)}">${esc(t('online.join'))}</button></td></tr>`;
      }).join('')}</tbody></table>`;
      for (const b of list.querySelectorAll('.join')) {
        b.addEventListener('click', async () => {
          try {
            const r = await api.join(b.dataset.id, undefined, localStorage.getItem('oware.name') || undefined);
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
