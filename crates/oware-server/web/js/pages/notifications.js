// /notifications: the signed-in player's notifications, newest first, and
// the challenges waiting for an answer. What is shown is marked read
// (POST /notifications/read with the ids seen); new ones come live.

import { api } from '../api.js';
import { t, errorText } from '../i18n.js';
import { esc, relTime } from '../ui.js';
import { currentUser } from '../account.js';
import { onInbox, notificationText, readDone, tcWords } from '../inbox.js';

const PAGE = 20;

export function mount(main) {
  let alive = true;
  if (!currentUser()) {
    main.innerHTML = `<h1>${esc(t('inbox.title'))}</h1><p><a href="/account" data-link>${esc(t('inbox.signIn'))}</a></p>`;
    return () => {};
  }
  main.innerHTML = `<h1>${esc(t('inbox.title'))}</h1>
    <section class="card challenges-card" hidden><h2>${esc(t('challenge.waiting'))}</h2><ul class="plain challenge-list"></ul></section>
    <section class="card">
      <p class="row"><button type="button" class="btn read-all">${esc(t('inbox.readAll'))}</button></p>
      <ul class="plain inbox-list" aria-live="polite"></ul>
      <p class="muted inbox-empty" hidden>${esc(t('inbox.empty'))}</p>
      <p><button type="button" class="btn inbox-more" hidden>${esc(t('inbox.older'))}</button></p>
      <p class="msg inbox-msg" role="status"></p>
    </section>`;
  const q = (s) => main.querySelector(s);
  const list = q('.inbox-list');
  let last = null;
  const item = (n) => {
    const { text, href } = notificationText(n);
    const li = document.createElement('li');
    li.className = `inbox-item${n.read ? '' : ' unread'}`;
    li.dataset.id = n.id;
    li.innerHTML = `${href ? `<a href="${esc(href)}" data-link class="inbox-text"></a>` : '<span class="inbox-text"></span>'}
      <span class="muted inbox-when">${esc(relTime(n.at))}</span>`;
    li.querySelector('.inbox-text').textContent = text;
    return li;
  };
  const markSeen = async (items) => {
    const ids = items.filter((n) => !n.read).map((n) => n.id);
    if (!ids.length) return;
    try { const r = await api.markRead({ ids }); readDone(r.unread); } catch (_) { /* shown unread next time */ }
  };
  const load = async (before) => {
    try {
      const r = await api.notifications(before, PAGE);
      if (!alive) return;
      for (const n of r.items) list.append(item(n));
      last = r.items.length ? r.items[r.items.length - 1].id : last;
      q('.inbox-more').hidden = r.items.length < PAGE;
      q('.inbox-empty').hidden = list.children.length > 0;
      markSeen(r.items);
    } catch (e) {
      if (alive) q('.inbox-msg').textContent = errorText(e);
    }
  };
  const loadChallenges = async () => {
    let r;
    try { r = await api.challenges(); } catch (_) { return; }
    if (!alive) return;
    const me = currentUser()?.username?.toLowerCase();
    const mine = (r.challenges || []).filter((c) => c.from.toLowerCase() === me);
    q('.challenges-card').hidden = mine.length === 0;
    const ul = q('.challenge-list');
    ul.replaceChildren(...mine.map((c) => {
      const li = document.createElement('li');
      li.innerHTML = `<span class="chl-to"></span> <span class="muted">${esc(tcWords(c.time_control))}</span>
        <button type="button" class="btn small chl-cancel">${esc(t('challenge.withdraw'))}</button>`;
      li.querySelector('.chl-to').textContent = t('challenge.to', { name: c.to });
      li.querySelector('.chl-cancel').addEventListener('click', async () => {
        try { await api.cancelChallenge(c.id); } catch (_) { /* gone already */ }
        loadChallenges();
      });
      return li;
    }));
  };
  q('.read-all').addEventListener('click', async () => {
    try {
      const r = await api.markRead({ all: true });
      readDone(r.unread);
      for (const li of list.querySelectorAll('.unread')) li.classList.remove('unread');
    } catch (e) { q('.inbox-msg').textContent = errorText(e); }
  });
  q('.inbox-more').addEventListener('click', () => load(last));
  const off = onInbox((m) => {
    if (m.type === 'notification' && m.notification) {
      list.prepend(item(m.notification));
      q('.inbox-empty').hidden = true;
      // Seen as it comes: this page is open.
      markSeen([m.notification]);
    }
    if (m.type === 'challenge') loadChallenges();
  });
  load(null);
  loadChallenges();
  return () => { alive = false; off(); };
}
