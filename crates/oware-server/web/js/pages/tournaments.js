// Tournaments: the list with a form to create one (/tournaments), and one
// tournament (/tournament/{id}) with its standings, its games, the
// player's join / pause / leave, and their game as soon as they are
// paired. Polls the server every 2 s while the page is shown (an arena
// pairs only the players whose page is open).

import { api } from '../api.js';
import { currentUser, onAccountChange } from '../account.js';
import { t, errorText, lang } from '../i18n.js';
import { esc, relTime, navigate, setMsg } from '../ui.js';
import { tcText } from './game.js';

const EVERY = 2000;

const CLOCKS = [[1, 0], [3, 0], [3, 2], [5, 3], [10, 5], [15, 10]];
const MINUTES = [15, 30, 45, 60, 90];
const ROUNDS = [3, 5, 7, 9];
const STARTS = [60, 300, 900, 3600];

function kindText(kind) { return t(kind === 'swiss' ? 'tour.swiss' : 'tour.arena'); }

/** "Arena · 3+2 · rated" */
function lineOf(x) {
  return [kindText(x.kind), tcText(x.time_control), x.rated ? t('seek.rated') : t('seek.casual')].join(' · ');
}

/** Where a tournament stands, in words. */
function statusText(x, now = Date.now()) {
  switch (x.status) {
    case 'created': return t('tour.starts', { when: relTime(x.starts_at, now) });
    case 'running':
      if (x.kind === 'swiss') return t('tour.round', { n: x.round, of: x.rounds });
      return t('tour.ends', { when: relTime(x.ends_at, now) });
    case 'cancelled': return t('tour.cancelled');
    default: return t('tour.finished', { when: relTime(x.ends_at || x.starts_at, now) });
  }
}

/** When the next Swiss round starts: counted in seconds in its last two
 * minutes ("in 20 seconds"; the page polls every 2 s), where relTime
 * would already say "now". */
export function nextRoundWhen(iso, now = Date.now()) {
  const s = Math.ceil((new Date(iso).getTime() - now) / 1000);
  if (s > 0 && s < 120) return new Intl.RelativeTimeFormat(lang(), { numeric: 'auto' }).format(s, 'second');
  return relTime(iso, now);
}

/** A points figure: "2", "2½" (Swiss half points). */
function points(x) {
  const whole = Math.floor(x);
  return x - whole >= 0.5 ? (whole ? `${whole}½` : '½') : String(whole);
}

export function mountList(main) {
  main.innerHTML = `
    <h1>${esc(t('tour.title'))}</h1>
    <section class="card tour-create"></section>
    <section class="card">
      <h2>${esc(t('tour.list'))}</h2>
      <div class="tour-list"><p class="muted">${esc(t('game.loading'))}</p></div>
    </section>`;
  const q = (s) => main.querySelector(s);
  let alive = true;

  function showForm() {
    const me = currentUser();
    if (!me) {
      q('.tour-create').innerHTML = `<p>${esc(t('tour.signIn'))}</p><p><a class="btn primary" href="/account" data-link>${esc(t('nav.signin'))}</a></p>`;
      return;
    }
    q('.tour-create').innerHTML = `
      <h2>${esc(t('tour.create'))}</h2>
      <form class="stack tour-form">
        <label class="field">${esc(t('tour.kind'))}
          <select name="kind"><option value="arena">${esc(t('tour.arena'))}</option><option value="swiss">${esc(t('tour.swiss'))}</option></select></label>
        <p class="muted kind-help">${esc(t('tour.arenaHelp'))}</p>
        <label class="field">${esc(t('tour.name'))} <input name="name" maxlength="40" required value="${esc(t('tour.defaultName', { name: me.username }))}"></label>
        <label class="field">${esc(t('tour.clock'))}
          <select name="clock">${CLOCKS.map(([m, i], k) => `<option value="${k}"${k === 2 ? ' selected' : ''}>${esc(tcText({ initial_ms: m * 60000, increment_ms: i * 1000 }))}</option>`).join('')}</select></label>
        <label class="field len-minutes">${esc(t('tour.length'))}
          <select name="minutes">${MINUTES.map((m) => `<option value="${m}"${m === 30 ? ' selected' : ''}>${esc(t('tour.minutes', { n: m }))}</option>`).join('')}</select></label>
        <label class="field len-rounds" hidden>${esc(t('tour.rounds'))}
          <select name="rounds">${ROUNDS.map((r) => `<option value="${r}"${r === 5 ? ' selected' : ''}>${r}</option>`).join('')}</select></label>
        <label class="field">${esc(t('tour.startsIn'))}
          <select name="starts">${STARTS.map((s) => `<option value="${s}">${esc(t('tour.minutes', { n: s / 60 }))}</option>`).join('')}</select></label>
        <label class="choice"><input type="checkbox" name="rated" checked> ${esc(t('seek.rated'))}</label>
        <button class="btn primary" type="submit">${esc(t('tour.createBtn'))}</button>
        <p class="msg" aria-live="polite"></p>
      </form>`;
    const form = q('.tour-form');
    form.kind.addEventListener('change', () => {
      const swiss = form.kind.value === 'swiss';
      q('.len-minutes').hidden = swiss;
      q('.len-rounds').hidden = !swiss;
      q('.kind-help').textContent = t(swiss ? 'tour.swissHelp' : 'tour.arenaHelp');
    });
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const [m, i] = CLOCKS[Number(form.clock.value)];
      const body = {
        kind: form.kind.value,
        name: form.name.value,
        time_control: { initial_ms: m * 60000, increment_ms: i * 1000 },
        rated: form.rated.checked,
        starts_in_s: Number(form.starts.value),
      };
      if (body.kind === 'swiss') body.rounds = Number(form.rounds.value);
      else body.minutes = Number(form.minutes.value);
      const msg = form.querySelector('.msg');
      try {
        const v = await api.createTournament(body);
        navigate(`/tournament/${v.id}`);
      } catch (e) {
        setMsg(msg, errorText(e), 'bad');
      }
    });
  }

  async function load() {
    let list;
    try { list = await api.tournaments(); } catch (e) {
      if (alive) q('.tour-list').innerHTML = `<p class="msg bad">${esc(errorText(e))}</p>`;
      return;
    }
    if (!alive) return;
    const all = list.tournaments || [];
    q('.tour-list').innerHTML = all.length
      ? `<table class="list"><tbody>${all.map((x) => `<tr>
          <td><a href="/tournament/${esc(x.id)}" data-link>${esc(x.name)}</a><br>
          <span class="muted">${esc(lineOf(x))}</span><br>
          <span class="muted">${esc(statusText(x))} · ${esc(t(x.entrants === 1 ? 'tour.players1' : 'tour.players', { n: x.entrants }))}</span></td>
          <td><a class="btn small" href="/tournament/${esc(x.id)}" data-link>${esc(t(x.status === 'created' || x.status === 'running' ? 'tour.open' : 'tour.results'))}</a></td></tr>`).join('')}</tbody></table>`
      : `<p class="muted">${esc(t('tour.none'))}</p>`;
  }

  showForm();
  const off = onAccountChange(showForm);
  load();
  const timer = setInterval(() => { if (!document.hidden) load(); }, 10000);
  return () => { alive = false; clearInterval(timer); off(); };
}

export function mountOne(main, id) {
  main.innerHTML = `
    <p><a href="/tournaments" data-link>← ${esc(t('tour.title'))}</a></p>
    <h1 class="tour-name">${esc(t('game.loading'))}</h1>
    <p class="muted tour-line"></p>
    <p class="tour-status" aria-live="polite"></p>
    <section class="card tour-you"></section>
    <section class="card">
      <h2>${esc(t('tour.standings'))}</h2>
      <div class="tour-standings"></div>
    </section>
    <section class="card">
      <h2>${esc(t('tour.games'))}</h2>
      <div class="tour-games"></div>
    </section>`;
  const q = (s) => main.querySelector(s);
  let alive = true;
  let lastGame = null;
  let v = null;

  function showYou() {
    const box = q('.tour-you');
    const me = currentUser();
    const open = v && (v.status === 'created' || v.status === 'running');
    if (!open) { box.hidden = true; return; }
    box.hidden = false;
    if (!me) {
      box.innerHTML = `<p>${esc(t('tour.signIn'))}</p><p><a class="btn primary" href="/account" data-link>${esc(t('nav.signin'))}</a></p>`;
      return;
    }
    const you = v.you;
    const buttons = [];
    let text;
    if (!you) {
      text = v.kind === 'swiss' && v.status === 'running' ? t('tour.swissStarted') : t('tour.notIn');
      if (!(v.kind === 'swiss' && v.status === 'running')) buttons.push(['join', t('tour.join'), 'primary']);
    } else if (you.state === 'left') {
      text = t('tour.youLeft');
    } else if (you.game) {
      text = t('tour.yourGame');
      buttons.push(['game', t('tour.toGame'), 'primary']);
    } else if (you.state === 'paused') {
      text = t('tour.youPaused');
      buttons.push(['join', t('tour.resume'), 'primary']);
      buttons.push(['leave', t('tour.leave'), '']);
    } else {
      text = v.status === 'created' ? t('tour.youWait') : (v.kind === 'arena' ? t('tour.youWaitPair') : t('tour.youWaitRound'));
      if (v.kind === 'arena') buttons.push(['pause', t('tour.pause'), '']);
      buttons.push(['leave', t('tour.leave'), '']);
    }
    box.innerHTML = `<p class="you-text">${esc(text)}</p><p class="row">${buttons.map(([a, label, cls]) => `<button type="button" class="btn ${cls}" data-act="${a}">${esc(label)}</button>`).join(' ')}</p><p class="msg" aria-live="polite"></p>`;
    for (const b of box.querySelectorAll('button')) {
      b.addEventListener('click', async () => {
        const act = b.dataset.act;
        if (act === 'game') { navigate(`/game/${you.game}`); return; }
        if (act === 'leave' && !confirm(t('tour.leaveSure'))) return;
        try {
          v = await api.tournamentAction(id, act);
          render();
        } catch (e) {
          setMsg(box.querySelector('.msg'), errorText(e), 'bad');
        }
      });
    }
  }

  function render() {
    if (!v) return;
    q('.tour-name').textContent = v.name;
    document.title = `${v.name} · Oware`;
    q('.tour-line').textContent = `${lineOf(v)}${v.creator ? ` · ${t('tour.by', { name: v.creator })}` : ''}`;
    let status = statusText(v);
    if (v.status === 'running' && v.kind === 'swiss' && v.next_at) status += ` · ${t('tour.next', { when: nextRoundWhen(v.next_at) })}`;
    q('.tour-status').textContent = `${status} · ${t(v.entrants === 1 ? 'tour.players1' : 'tour.players', { n: v.entrants })}`;
    showYou();
    const swiss = v.kind === 'swiss';
    const rows = v.standings || [];
    q('.tour-standings').innerHTML = rows.length
      ? `<table class="list standings"><thead><tr><th>#</th><th>${esc(t('tour.player'))}</th><th>${esc(t('tour.points'))}</th>${swiss ? `<th title="${esc(t('tour.buchholzLong'))}">${esc(t('tour.buchholz'))}</th><th title="${esc(t('tour.sbLong'))}">${esc(t('tour.sb'))}</th>` : `<th>${esc(t('tour.sheet'))}</th>`}</tr></thead><tbody>${rows.map((s) => `<tr class="${s.state !== 'active' ? 'muted' : ''}">
          <td>${s.rank}</td>
          <td><a href="/player/${encodeURIComponent(s.name)}" data-link>${esc(s.name)}</a> <span class="muted">${s.rating}</span>${s.on_fire ? ` <span class="pill" title="${esc(t('tour.onFire'))}" aria-label="${esc(t('tour.onFire'))}">×2</span>` : ''}${s.state === 'paused' ? ` <span class="muted">(${esc(t('tour.paused'))})</span>` : ''}${s.state === 'left' ? ` <span class="muted">(${esc(t('tour.left'))})</span>` : ''}${s.playing ? ` <a href="/game/${esc(s.playing)}" data-link title="${esc(t('tour.playing'))}" aria-label="${esc(t('tour.playing'))}">▶</a>` : ''}</td>
          <td><strong>${esc(swiss ? points(s.score) : String(s.score))}</strong></td>
          ${swiss ? `<td>${esc(points(s.buchholz ?? 0))}</td><td>${esc(String(s.sonneborn_berger ?? 0))}</td>` : `<td class="sheet">${esc((s.sheet || []).join(' '))}</td>`}
        </tr>`).join('')}</tbody></table>`
      : `<p class="muted">${esc(t('tour.noPlayers'))}</p>`;
    const games = (v.games || []).slice(-30).reverse();
    const result = (g) => (g.outcome === 'south_won' ? '1–0' : g.outcome === 'north_won' ? '0–1' : g.outcome === 'draw' ? '½–½' : t('tour.inPlay'));
    q('.tour-games').innerHTML = games.length
      ? `<table class="list"><tbody>${games.map((g) => `<tr><td>${swiss ? `${esc(t('tour.roundShort', { n: g.round }))} · ` : ''}${g.id
          ? `<a href="/game/${esc(g.id)}" data-link>${esc(g.south)} – ${esc(g.north)}</a> <span class="muted">${esc(result(g))}</span>`
          : `${esc(g.south)} <span class="muted">${esc(t('tour.bye'))}</span>`}</td></tr>`).join('')}</tbody></table>`
      : `<p class="muted">${esc(t('tour.noGames'))}</p>`;
  }

  async function load() {
    try { v = await api.tournament(id); } catch (e) {
      if (alive) q('.tour-status').innerHTML = `<span class="msg bad">${esc(errorText(e))}</span>`;
      return;
    }
    if (!alive) return;
    render();
    // Paired while the page is open: straight to the new game (a game
    // already under way when the page opened is offered, not forced).
    const g = v.you?.game || null;
    const fresh = !first && g && g !== lastGame && !document.hidden;
    first = false;
    lastGame = g;
    if (fresh) navigate(`/game/${g}`);
  }

  let first = true;
  const off = onAccountChange(() => { load(); });
  load();
  const timer = setInterval(() => { if (!document.hidden) load(); }, EVERY);
  return () => { alive = false; clearInterval(timer); off(); };
}
