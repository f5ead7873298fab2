// /account: sign in or create an account; once signed in, the player's
// ratings, sign out, e-mail (pages/mail.js), a new password, and deleting
// the account.

import { t, errorText } from '../i18n.js';
import { esc, navigate, setMsg } from '../ui.js';
import { currentUser, signIn, signUp, signOut, deleteAccount, accountReady, ratingText, onAccountChange } from '../account.js';
import { api } from '../api.js';
import { showEmailCard } from './mail.js';

export const CLASSES = ['fast', 'slow', 'per_move', 'correspondence'];

/** Where to go after signing in: `?next=/lobby` (a path of this site only). */
function nextPath() {
  const n = new URLSearchParams(location.search).get('next') || '';
  return /^\/[A-Za-z0-9/_?=&-]*$/.test(n) && !n.startsWith('//') ? n : null;
}

export function mount(main) {
  let alive = true;
  const draw = () => { if (alive) (currentUser() ? signedIn : anonymous)(main); };
  main.innerHTML = `<p class="muted">…</p>`;
  accountReady.then(draw);
  const off = onAccountChange(draw);
  return () => { alive = false; off(); };
}

function anonymous(main) {
  main.innerHTML = `
    <h1>${esc(t('account.title'))}</h1>
    <p class="muted">${esc(t('account.why'))}</p>
    <div class="grid2 account-forms">
      <form class="card signin-form" novalidate>
        <h2>${esc(t('account.signin'))}</h2>
        <label class="field">${esc(t('account.username'))}<input type="text" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="40" required></label>
        <label class="field">${esc(t('account.password'))}<input type="password" name="password" autocomplete="current-password" maxlength="200" required></label>
        <p><button class="btn primary" type="submit">${esc(t('account.signinBtn'))}</button></p>
        <p class="small-print"><a class="forgot-link" href="/reset-password" data-link>${esc(t('mail.forgot'))}</a></p>
        <div class="msg" role="alert"></div>
      </form>
      <form class="card signup-form" novalidate>
        <h2>${esc(t('account.signup'))}</h2>
        <label class="field">${esc(t('account.username'))}<input type="text" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="40" aria-describedby="name-rule" required></label>
        <p id="name-rule" class="muted small-print">${esc(t('account.nameRule'))}</p>
        <label class="field">${esc(t('account.password'))}<input type="password" name="password" autocomplete="new-password" maxlength="200" aria-describedby="pw-rule" required></label>
        <p id="pw-rule" class="muted small-print">${esc(t('account.passwordRule'))}</p>
        <p><button class="btn primary" type="submit">${esc(t('account.signupBtn'))}</button></p>
        <div class="msg" role="alert"></div>
      </form>
    </div>`;
  for (const [sel, act] of [['.signin-form', signIn], ['.signup-form', signUp]]) {
    const form = main.querySelector(sel);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const btn = form.querySelector('button');
      btn.disabled = true;
      setMsg(form.querySelector('.msg'), '');
      try {
        await act(form.username.value.trim(), form.password.value);
        const next = nextPath();
        if (next) navigate(next, { replace: true });
      } catch (err) {
        setMsg(form.querySelector('.msg'), errorText(err), 'bad');
        form.password.value = '';
      } finally { btn.disabled = false; }
    });
  }
}

/** The players the account follows, each with the public games they are
 * playing now (to watch), and the players it blocked. */
async function showRelations(el) {
  let r;
  try { r = await api.relations(); } catch (e) { el.innerHTML = `<p class="msg bad">${esc(errorText(e))}</p>`; return; }
  if (!el.isConnected) return;
  const link = (n) => `<a href="/player/${encodeURIComponent(n)}" data-link>${esc(n)}</a>`;
  el.innerHTML = (r.following.length
    ? `<ul class="following">${r.following.map((f) => `<li>${link(f.username)}${f.playing.map((g) => ` · <a class="btn small" href="/game/${esc(g.id)}" data-link>${esc(t('account.playingNow'))}</a>`).join('')}</li>`).join('')}</ul>`
    : `<p class="muted">${esc(t('account.followingNone'))}</p>`)
    + (r.blocked.length ? `<h3>${esc(t('account.blockedList'))}</h3><p>${r.blocked.map(link).join(', ')}</p>` : '');
}

function signedIn(main) {
  const me = currentUser();
  const name = me.username;
  main.innerHTML = `
    <h1>${esc(t('account.hello', { name }))}</h1>
    <section class="card">
      <h2>${esc(t('account.ratings'))}</h2>
      <ul class="rating-cards">${CLASSES.map((c) => {
        const r = me.ratings?.find((x) => x.class === c);
        return `<li><span class="muted">${esc(t(`class.${c}`))}</span> <strong>${esc(ratingText(r) || '—')}</strong></li>`;
      }).join('')}<li class="puzzle-rating"><span class="muted">${esc(t('player.puzzles'))}</span> <strong>${esc(ratingText(me.puzzles) || '—')}</strong></li></ul>
      <div class="row">
        <a class="btn" href="/player/${encodeURIComponent(name)}" data-link>${esc(t('account.profile'))}</a>
        <a class="btn" href="/review" data-link>${esc(t('review.mine'))}</a>
        <button class="btn signout-btn" type="button">${esc(t('account.signout'))}</button>
      </div>
      <div class="msg signout-msg" role="alert"></div>
    </section>
    <section class="card email-card"><h2>${esc(t('mail.title'))}</h2><p class="muted">…</p></section>
    <section class="card following-card">
      <h2>${esc(t('account.following'))}</h2>
      <div class="following-list"><p class="muted">…</p></div>
    </section>
    <div class="grid2">
      <form class="card password-form" novalidate>
        <h2>${esc(t('account.changePassword'))}</h2>
        <input type="text" name="username" autocomplete="username" value="${esc(name)}" hidden>
        <label class="field">${esc(t('account.oldPassword'))}<input type="password" name="old" autocomplete="current-password" maxlength="200" required></label>
        <label class="field">${esc(t('account.newPassword'))}<input type="password" name="new" autocomplete="new-password" maxlength="200" aria-describedby="pw-rule2" required></label>
        <p id="pw-rule2" class="muted small-print">${esc(t('account.passwordRule'))}</p>
        <p><button class="btn primary" type="submit">${esc(t('account.changeBtn'))}</button></p>
        <div class="msg" role="alert"></div>
      </form>
      <form class="card delete-form" novalidate>
        <h2>${esc(t('account.delete'))}</h2>
        <p class="muted">${esc(t('account.deleteWhat'))}</p>
        <p><a class="export-link" href="/api/v1/account/export" download="oware-account.json">${esc(t('account.export'))}</a></p>
        <label class="field">${esc(t('account.password'))}<input type="password" name="password" autocomplete="current-password" maxlength="200" required></label>
        <p><button class="btn danger" type="submit">${esc(t('account.deleteBtn'))}</button></p>
        <div class="msg" role="alert"></div>
      </form>
    </div>`;
  showRelations(main.querySelector('.following-list'));
  showEmailCard(main.querySelector('.email-card'));
  main.querySelector('.signout-btn').addEventListener('click', async () => {
    try { await signOut(); } catch (err) { setMsg(main.querySelector('.signout-msg'), errorText(err), 'bad'); }
  });
  const pw = main.querySelector('.password-form');
  pw.addEventListener('submit', async (e) => {
    e.preventDefault();
    const msg = pw.querySelector('.msg');
    try {
      await api.changePassword(pw.old.value, pw.new.value);
      pw.reset();
      setMsg(msg, t('account.passwordChanged'), 'ok');
    } catch (err) { setMsg(msg, errorText(err), 'bad'); }
  });
  const del = main.querySelector('.delete-form');
  del.addEventListener('submit', async (e) => {
    e.preventDefault();
    const msg = del.querySelector('.msg');
    if (!window.confirm(t('account.deleteConfirm', { name }))) return;
    try {
      await deleteAccount(del.password.value);
      navigate('/', { replace: true });
    } catch (err) { setMsg(msg, errorText(err), 'bad'); del.password.value = ''; }
  });
}
