// New game form: against the computer or two players on one device.

import { browserEngine } from '../engine/client.js';
import { currentUser } from '../account.js';
import { api, seats } from '../api.js';
import { t, errorText, levelName } from '../i18n.js';
import { esc, navigate, setMsg } from '../ui.js';
import { createLocalGame, offline } from '../local.js';

/** Common clocks (minutes + seconds of increment), as on other game sites. */
const PRESETS = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10], [30, 20]];

/** A preset clock in words, for screen readers: "1 minute, no increment",
 * "3 minutes plus 2 seconds a move". */
function presetWords(m, i) {
  const min = m === 1 ? t('play.presetMin1') : t('play.presetMin', { n: m });
  if (!i) return t('play.presetBare', { min });
  return t('play.preset', { min, inc: i === 1 ? t('play.presetInc1') : t('play.presetInc', { n: i }) });
}

/** Days a move in correspondence games (the server accepts these only). */
const DAYS = [1, 3, 7, 14];

/** The time-control fieldset; `correspondence` adds days-a-move games
 * (online games only). */
export function timeControlFields(prefix, { correspondence = false } = {}) {
  return `<fieldset><legend>${esc(t('play.time'))}</legend>
    <label class="choice"><input type="radio" name="${prefix}tc" value="none" checked> ${esc(t('play.none'))}</label>
    <label class="choice"><input type="radio" name="${prefix}tc" value="move"> ${esc(t('play.permove'))}</label>
    <label class="choice"><input type="radio" name="${prefix}tc" value="clock"> ${esc(t('play.clock'))}</label>
    ${correspondence ? `<label class="choice"><input type="radio" name="${prefix}tc" value="corr"> ${esc(t('play.correspondence'))}</label>` : ''}
    <div class="row tc-move" hidden><input type="number" name="${prefix}per" min="1" max="3600" value="30" style="width:6em"> ${esc(t('play.seconds'))}</div>
    <div class="row tc-clock" hidden><input type="number" name="${prefix}min" min="1" max="600" value="5" style="width:5em"> ${esc(t('play.minutes'))}
      + <input type="number" name="${prefix}inc" min="0" max="600" value="3" style="width:5em"> ${esc(t('play.increment'))}</div>
    ${correspondence ? `<div class="row tc-corr" hidden><label>${esc(t('play.daysPerMove'))} <select name="${prefix}days">${DAYS.map((d) => `<option value="${d}"${d === 3 ? ' selected' : ''}>${esc(t(d === 1 ? 'tc.days1' : 'tc.days', { n: d }))}</option>`).join('')}</select></label></div>` : ''}
    <div class="row presets" role="group" aria-label="${esc(t('play.presets'))}">${PRESETS.map(([m, i]) => `<button type="button" class="btn small preset" data-min="${m}" data-inc="${i}" aria-label="${esc(presetWords(m, i))}">${m}+${i}</button>`).join('')}</div>
  </fieldset>`;
}

export function wireTimeControl(form, prefix) {
  const upd = () => {
    const v = form.querySelector(`[name=${prefix}tc]:checked`).value;
    form.querySelector('.tc-move').hidden = v !== 'move';
    form.querySelector('.tc-clock').hidden = v !== 'clock';
    const corr = form.querySelector('.tc-corr');
    if (corr) corr.hidden = v !== 'corr';
  };
  for (const r of form.querySelectorAll(`[name=${prefix}tc]`)) r.addEventListener('change', upd);
  // A preset fills the clock's fields (the fields stay editable).
  for (const b of form.querySelectorAll('.preset')) {
    b.addEventListener('click', () => {
      const clock = form.querySelector(`[name=${prefix}tc][value=clock]`);
      clock.checked = true;
      form[`${prefix}min`].value = b.dataset.min;
      form[`${prefix}inc`].value = b.dataset.inc;
      clock.dispatchEvent(new Event('change', { bubbles: true }));
    });
  }
  upd();
}

export function readTimeControl(form, prefix) {
  const v = form.querySelector(`[name=${prefix}tc]:checked`).value;
  if (v === 'move') return { per_move_ms: Number(form[`${prefix}per`].value) * 1000 };
  if (v === 'corr') return { days_per_move: Number(form[`${prefix}days`].value) };
  if (v === 'clock') return { initial_ms: Number(form[`${prefix}min`].value) * 60000, increment_ms: Number(form[`${prefix}inc`].value) * 1000 };
  return null;
}

export function mount(main) {
  const params = new URLSearchParams(location.search);
  const mode = params.get('mode') === 'hotseat' ? 'hotseat' : 'computer';
  const pos = params.get('position') || '';
  main.innerHTML = `
    <h1>${esc(t('play.title'))}</h1>
    <form class="card new-game" novalidate>
      <fieldset><legend>${esc(t('play.mode'))}</legend>
        <label class="choice"><input type="radio" name="mode" value="computer" ${mode === 'computer' ? 'checked' : ''}> ${esc(t('play.computer'))}</label>
        <label class="choice"><input type="radio" name="mode" value="hotseat" ${mode === 'hotseat' ? 'checked' : ''}> ${esc(t('play.hotseat'))}</label>
      </fieldset>
      <div class="computer-only">
        <fieldset><legend>${esc(t('play.level'))}</legend>
          <select name="level" aria-describedby="level-hint" aria-label="${esc(t('play.level'))}">${Array.from({ length: 10 }, (_, i) => i + 1).map((n) => `<option value="${n}"${String(n) === (localStorage.getItem('oware.level') || '3') ? ' selected' : ''}>${esc(levelName(n))}</option>`).join('')}</select>
          <p id="level-hint" class="muted">${esc(t('play.levelHint'))}</p>
        </fieldset>
        <fieldset><legend>${esc(t('play.side'))}</legend>
          <label class="choice"><input type="radio" name="side" value="S" checked> ${esc(t('play.sideS'))}</label>
          <label class="choice"><input type="radio" name="side" value="N"> ${esc(t('play.sideN'))}</label>
          <label class="choice"><input type="radio" name="side" value="random"> ${esc(t('play.random'))}</label>
        </fieldset>
      </div>
      ${timeControlFields('')}
      <fieldset><legend>${esc(t('play.start'))}</legend>
        <label class="choice"><input type="radio" name="start" value="start" ${pos ? '' : 'checked'}> ${esc(t('play.startpos'))}</label>
        <label class="choice"><input type="radio" name="start" value="custom" ${pos ? 'checked' : ''}> ${esc(t('play.custom'))}</label>
        <input type="text" name="position" class="mono" size="34" placeholder="4-4-4-4-4-4-4-4-4-4-4-4-0-0-S" value="${esc(pos)}" aria-label="${esc(t('play.custom'))}">
      </fieldset>
      ${currentUser() ? `<p class="playing-as">${esc(t('seek.as', { name: currentUser().username }))}</p>` : `<label>${esc(t('play.name'))} <input type="text" name="name" maxlength="40" value="${esc(localStorage.getItem('oware.name') || '')}"></label>`}
      <p class="msg offline-note" ${offline() ? '' : 'hidden'}>${esc(t('offline.playHere'))}</p>
      <p><button class="btn primary" type="submit">${esc(t('play.go'))}</button></p>
      <div class="msg" role="status"></div>
    </form>`;
  const form = main.querySelector('form');
  const upd = () => {
    const m = form.querySelector('[name=mode]:checked').value;
    form.querySelector('.computer-only').hidden = m !== 'computer';
  };
  form.addEventListener('input', upd);
  // Offline, the game is played on this device: the form says so while it is.
  const note = () => { form.querySelector('.offline-note').hidden = !offline(); };
  window.addEventListener('online', note);
  window.addEventListener('offline', note);
  wireTimeControl(form, '');
  upd();
  form.position.addEventListener('input', () => { form.querySelector('[name=start][value=custom]').checked = true; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const m = form.querySelector('[name=mode]:checked').value;
    const custom = form.querySelector('[name=start]:checked').value === 'custom';
    // Signed in, the game is the account's and carries its name.
    const name = form.querySelector('[name=name]')?.value.trim();
    if (name) localStorage.setItem('oware.name', name);
    localStorage.setItem('oware.level', form.level.value);
    const body = { mode: m, name: name || undefined, position: custom ? form.position.value.trim() : undefined };
    if (m === 'computer') {
      body.level = Number(form.level.value);
      body.side = form.querySelector('[name=side]:checked').value;
    }
    body.time_control = readTimeControl(form, '');
    // Untimed games against the computer: this browser's engine plays the
    // computer's moves when it can (docs/WEB.md, "Which engine answers").
    if (m === 'computer' && !body.time_control && browserEngine()) body.engine = 'browser';
    try {
      let r;
      if (offline()) r = await createLocalGame(body);
      else {
        try {
          r = await api.createGame(body);
          seats.add(r.id, r.tokens);
        } catch (err) {
          // The server cannot be reached: the game is played on this device.
          if (err.code !== 'network') throw err;
          r = await createLocalGame(body);
        }
      }
      if (body.side === 'random') sessionStorage.setItem(`oware.drawn.${r.id}`, r.you);
      navigate(`/game/${r.id}`);
    } catch (err) {
      setMsg(form.querySelector('.msg'), errorText(err), 'bad');
    }
  });
  return () => { window.removeEventListener('online', note); window.removeEventListener('offline', note); };
}
