// Screenshots for the README and closing notes (not a test): the puzzle
// page after a try, and a lesson with its feedback, on a 360-px phone, in
// English and French. Run against a server: `OWARE_URL=http://… node
// readme-shots.mjs`; writes e2e/screenshots/readme/phone-puzzle-{en,fr}.png
// and phone-lesson-{en,fr}.png.

import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { launch, BASE, SHOTS, until } from './lib.mjs';

const out = join(SHOTS, 'readme');
mkdirSync(out, { recursive: true });

const b = await launch();
try {
  for (const lang of ['en', 'fr']) {
    const ctx = await b.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    await ctx.addInitScript((l) => localStorage.setItem('oware.lang', l), lang);
    const page = await ctx.newPage();

    // A puzzle, one try (the first playable house: solved or not, the
    // page answers in words).
    await page.goto(`${BASE}/puzzles`);
    await page.locator('.puz-board .house.playable').first().waitFor();
    await page.locator('.puz-board .house.playable').first().click();
    await page.locator('.puz-msg.puz-solved, .puz-msg.puz-failed').waitFor();
    await page.screenshot({ path: join(out, `phone-puzzle-${lang}.png`) });

    // Lesson R5: D captures 3 + 2; the lesson says what happened.
    await page.goto(`${BASE}/learn`);
    const r5 = page.locator('#r5');
    await r5.locator('.house.playable').first().waitFor();
    await r5.locator('.house[data-house="D"]').click();
    await until(async () => /^(Bravo|Well done)/.test(await r5.locator('.msg').textContent()), 'R5 feedback');
    await r5.locator('.msg').scrollIntoViewIfNeeded();
    await r5.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(out, `phone-lesson-${lang}.png`) });
    await ctx.close();
    console.log(`${lang}: phone-puzzle-${lang}.png, phone-lesson-${lang}.png`);
  }
} finally {
  await b.close();
}
