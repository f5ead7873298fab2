// E-mail in the browser (issue 35), in French on a 360×640 phone, against
// a real SMTP server (aiosmtpd, installed by scripts/install-test-deps, the
// Python of /opt/oware-test-smtp or OWARE_TEST_SMTP_PYTHON): an address
// added on the account page and confirmed by the mail's link; signed out,
// "Mot de passe oublié ?" asks for a reset; the mail's link sets a new
// password, which signs in; the link used again is refused in French. No
// page scrolls sideways. The reset mail as received is kept beside the
// screenshots (e2e/screenshots/mail-reset-fr.txt).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, shot, until, watchErrors, freePort, startServer, SHOTS } from '../lib.mjs';

const SINK = `
import email, email.policy, json, sys
from aiosmtpd.controller import Controller
class Sink:
    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        print(json.dumps({"to": envelope.rcpt_tos, "subject": str(msg["subject"]),
                          "text": msg.get_body(preferencelist=("plain",)).get_content(),
                          "list_unsubscribe": str(msg["list-unsubscribe"] or "")}), flush=True)
        return "250 OK"
c = Controller(Sink(), hostname="127.0.0.1", port=int(sys.argv[1]))
c.start()
print(json.dumps({"ready": True}), flush=True)
sys.stdin.read()
`;

function python() {
  for (const p of [process.env.OWARE_TEST_SMTP_PYTHON, '/opt/oware-test-smtp/bin/python', 'python3']) {
    if (p && spawnSync(p, ['-c', 'import aiosmtpd']).status === 0) return p;
  }
  throw new Error('no Python with aiosmtpd: run scripts/install-test-deps');
}

/** aiosmtpd on `port`; `next()` resolves with the next mail taken. */
async function smtpServer(port) {
  const child = spawn(python(), ['-c', SINK, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const queue = [];
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = JSON.parse(line);
    const w = waiting.shift();
    if (w) w(m); else queue.push(m);
  });
  const next = (ms = 20000) => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no mail in time')), ms);
    waiting.push((m) => { clearTimeout(timer); resolve(m); });
  }));
  assert.equal((await next()).ready, true);
  return { next, stop: () => child.kill('SIGKILL') };
}

const link = (mail, page) => {
  const m = mail.text.match(new RegExp(`(https?://\\S+/${page}#[0-9a-f]{64})`));
  assert.ok(m, `no /${page} link in ${mail.text}`);
  return m[1];
};

test('an address confirmed and a password reset by mail, in French on a phone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oware-mail-'));
  const smtpPort = await freePort();
  const smtp = await smtpServer(smtpPort);
  const port = await freePort();
  const server = await startServer({
    port,
    db: join(dir, 'games.sqlite3'),
    args: ['--smtp', `smtp://127.0.0.1:${smtpPort}`, '--mail-from', 'site@oware.test'],
  }).catch((e) => { smtp.stop(); throw e; });
  const b = await launch();
  try {
    const BASE = server.url;
    const phone = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, locale: 'fr-FR' });
    const page = await phone.newPage();
    const errors = watchErrors(page);
    const fits = async (what) => {
      const m = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth }));
      assert.ok(m.scrollWidth <= 360 && m.width === 360, `${what} scrolls sideways (${m.scrollWidth})`);
    };
    const name = `Ama_${Math.random().toString(36).slice(2, 8)}`;
    await page.goto(`${BASE}/account?lang=fr`);
    const up = page.locator('.signup-form');
    await up.locator('[name=username]').fill(name);
    await up.locator('[name=password]').fill('graines et maisons');
    await up.locator('button[type=submit]').click();

    // The e-mail card: an address added, waiting for its link.
    const card = page.locator('.email-card');
    await card.locator('[name=email]').fill('ama@example.com');
    await card.locator('[name=password]').fill('graines et maisons');
    await card.locator('button[type=submit]').click();
    await until(async () => /en attente/.test(await card.locator('.mail-status').textContent()), 'the address pending');
    await fits('the account page with its e-mail card');
    await shot(page, 'phone-mail-card-fr');
    const verify = await smtp.next();
    assert.deepEqual(verify.to, ['ama@example.com']);
    assert.match(verify.subject, /confirmez/);
    await page.goto(link(verify, 'verify-email'));
    await until(async () => /est confirmée/.test(await page.locator('main .msg').textContent()), 'confirmed');
    await page.goto(`${BASE}/account`);
    await until(async () => /confirmée/.test(await page.locator('.email-card .mail-status').textContent()), 'the card says confirmed');

    // Signed out: "forgot your password" asks for a link.
    await page.context().clearCookies();
    await page.goto(`${BASE}/account`);
    await page.locator('.forgot-link').click();
    await page.waitForURL(/\/reset-password$/);
    await page.locator('.reset-ask-form [name=email]').fill('AMA@example.com');
    await page.locator('.reset-ask-form button').click();
    await until(async () => /un lien est en route/.test(await page.locator('.reset-ask-form .msg').textContent()), 'the reset asked');
    await fits('the reset request page');
    const reset = await smtp.next();
    assert.match(reset.subject, /nouveau mot de passe/);
    writeFileSync(join(SHOTS, 'mail-reset-fr.txt'), `To: ${reset.to.join(', ')}\nSubject: ${reset.subject}\n\n${reset.text}`);
    const resetLink = link(reset, 'reset-password');
    await page.goto(resetLink);
    await page.locator('.reset-form [name=password]').fill('un nouveau secret');
    await shot(page, 'phone-reset-fr');
    await page.locator('.reset-form button').click();
    await until(async () => /mot de passe est changé/.test(await page.locator('.reset-form .msg').textContent()), 'the password changed');
    await fits('the reset page');

    // The new password signs in; the link does not work twice.
    const r = await page.evaluate(async (n) => (await fetch('/api/v1/account/signin', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: n, password: 'un nouveau secret' }),
    })).status, name);
    assert.equal(r, 200);
    await page.goto('about:blank');
    await page.goto(resetLink);
    await page.locator('.reset-form [name=password]').fill('encore un autre secret');
    await page.locator('.reset-form button').click();
    await until(async () => /déjà servi/.test(await page.locator('.reset-form .msg').textContent()), 'the used link refused in French');

    // The mail's List-Unsubscribe link, opened by a person (the token in
    // its query): the page unsubscribes, in French.
    const header = reset.list_unsubscribe.replace(/^<|>$/g, '');
    assert.match(header, /\/unsubscribe\?token=[0-9a-f]{64}$/);
    await page.goto(header);
    await until(async () => /C’est fait/.test(await page.locator('main .msg').textContent()), 'unsubscribed by the header link');
    await fits('the unsubscribe page');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
    await server.stop();
    smtp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
