// E-mail: the account page's card (add, verify status, remove, mails on or
// off), and the pages the mails' links open: /verify-email, /unsubscribe
// and /reset-password (which also asks for a reset). A link carries its
// token after `#`, so it never reaches a server's log or a Referer.

import { t, lang, errorText } from '../i18n.js';
import { esc, setMsg } from '../ui.js';
import { api } from '../api.js';

// A link's token: after `#` in the mails' links; in the query
// (`?token=`) when a person opens the List-Unsubscribe header's link.
const token = () => location.hash.replace(/^#/, '').trim()
  || (new URLSearchParams(location.search).get('token') || '').trim();

/** The e-mail card of the account page, drawn into `el`. */
export async function showEmailCard(el) {
  let v;
  try { v = await api.email(); } catch (e) { el.innerHTML = `<h2>${esc(t('mail.title'))}</h2><p class="msg bad">${esc(errorText(e))}</p>`; return; }
  if (!el.isConnected) return;
  if (!v.available) {
    el.innerHTML = `<h2>${esc(t('mail.title'))}</h2><p class="muted mail-off">${esc(t('mail.off'))}</p>`;
    return;
  }
  const status = !v.email ? t('mail.none')
    : v.verified ? t('mail.verified', { email: v.email }) : t('mail.pending', { email: v.email });
  el.innerHTML = `
    <h2>${esc(t('mail.title'))}</h2>
    <p class="mail-status">${esc(status)}</p>
    <p class="muted small-print">${esc(t('mail.why'))}</p>
    <form class="email-form" novalidate>
      <label class="field">${esc(t('mail.address'))}<input type="email" name="email" autocomplete="email" maxlength="254" value="${esc(v.email || '')}" required></label>
      <label class="field">${esc(t('account.password'))}<input type="password" name="password" autocomplete="current-password" maxlength="200" required></label>
      <p class="row"><button class="btn primary" type="submit">${esc(t(v.email ? 'mail.change' : 'mail.add'))}</button>
      ${v.email ? `<button class="btn remove-email" type="button">${esc(t('mail.remove'))}</button>` : ''}</p>
    </form>
    ${v.email ? `<label class="check"><input type="checkbox" class="mail-subscribed" ${v.subscribed ? 'checked' : ''}> ${esc(t('mail.subscribed'))}</label>` : ''}
    <div class="msg" role="alert"></div>`;
  const msg = el.querySelector('.msg');
  const form = el.querySelector('.email-form');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const btn = form.querySelector('button[type=submit]');
    btn.disabled = true;
    try {
      await api.setEmail(form.email.value.trim(), form.password.value, lang());
      await showEmailCard(el);
      setMsg(el.querySelector('.msg'), t('mail.sent'), 'ok');
    } catch (err) {
      setMsg(msg, errorText(err), 'bad');
      form.password.value = '';
    } finally { btn.disabled = false; }
  });
  el.querySelector('.remove-email')?.addEventListener('click', async () => {
    try { await api.removeEmail(); await showEmailCard(el); } catch (err) { setMsg(msg, errorText(err), 'bad'); }
  });
  el.querySelector('.mail-subscribed')?.addEventListener('change', async (e) => {
    try {
      await api.mailSubscription(e.target.checked);
      setMsg(msg, t(e.target.checked ? 'mail.subscribedOn' : 'mail.subscribedOff'), 'ok');
    } catch (err) { setMsg(msg, errorText(err), 'bad'); e.target.checked = !e.target.checked; }
  });
}

/** /verify-email#TOKEN */
export function mountVerify(main) {
  main.innerHTML = `<h1>${esc(t('mail.verifyTitle'))}</h1><p class="msg" role="status">…</p>`;
  const msg = main.querySelector('.msg');
  api.verifyEmail(token()).then(
    (r) => setMsg(msg, t('mail.verifiedNow', { email: r.email || '' }), 'ok'),
    (e) => setMsg(msg, errorText(e), 'bad'));
}

/** /unsubscribe#TOKEN (or ?token=TOKEN) */
export function mountUnsubscribe(main) {
  main.innerHTML = `<h1>${esc(t('mail.unsubscribeTitle'))}</h1><p class="msg" role="status">…</p>`;
  const msg = main.querySelector('.msg');
  api.unsubscribe(token()).then(
    () => setMsg(msg, t('mail.unsubscribed'), 'ok'),
    (e) => setMsg(msg, errorText(e), 'bad'));
}

/** /reset-password: without a token, asks for a reset link; with one
 * (#TOKEN), sets the new password. */
export function mountReset(main) {
  const tok = token();
  if (!tok) {
    main.innerHTML = `
      <h1>${esc(t('mail.resetTitle'))}</h1>
      <form class="card reset-ask-form" novalidate>
        <p class="muted">${esc(t('mail.resetHow'))}</p>
        <label class="field">${esc(t('mail.address'))}<input type="email" name="email" autocomplete="email" maxlength="254" required></label>
        <p><button class="btn primary" type="submit">${esc(t('mail.resetSend'))}</button></p>
        <div class="msg" role="alert"></div>
      </form>`;
    const form = main.querySelector('.reset-ask-form');
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const msg = form.querySelector('.msg');
      try {
        await api.askPasswordReset(form.email.value.trim());
        setMsg(msg, t('mail.resetAsked'), 'ok');
      } catch (err) { setMsg(msg, errorText(err), 'bad'); }
    });
    return;
  }
  main.innerHTML = `
    <h1>${esc(t('mail.resetTitle'))}</h1>
    <form class="card reset-form" novalidate>
      <label class="field">${esc(t('account.newPassword'))}<input type="password" name="password" autocomplete="new-password" maxlength="200" aria-describedby="pw-rule3" required></label>
      <p id="pw-rule3" class="muted small-print">${esc(t('account.passwordRule'))}</p>
      <p><button class="btn primary" type="submit">${esc(t('mail.resetBtn'))}</button></p>
      <div class="msg" role="alert"></div>
    </form>`;
  const form = main.querySelector('.reset-form');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const msg = form.querySelector('.msg');
    const btn = form.querySelector('button');
    btn.disabled = true;
    try {
      await api.resetPassword(tok, form.password.value);
      form.password.value = '';
      history.replaceState(null, '', '/reset-password');
      msg.innerHTML = `${esc(t('mail.resetDone'))} <a href="/account" data-link>${esc(t('account.signin'))}</a>`;
      msg.className = 'msg ok';
    } catch (err) {
      setMsg(msg, errorText(err), 'bad');
      btn.disabled = false;
    }
  });
}
