// Browser test of Thai names: a player registers "สมชาย" (with Thai digits,
// so that a run against a running server gets a fresh name), the top bar
// shows it, and its player page opens from the top bar's link.
import { join } from 'node:path';
import { artifacts, browser, env, expect, register, step } from './lib.mjs';

export async function namesSteps() {
  const thaiDigits = [...String(Math.floor(Math.random() * 1e6))].map(d => String.fromCharCode(0x0e50 + +d)).join('');
  const name = `สมชาย${thaiDigits}`;
  const page = await browser('thai-name');

  await step('names: a Thai-script name registers and its player page works', async () => {
    await register(page, name);
    const shown = await page.textContent('#username');
    expect(shown.includes(name), `the top bar shows ${name}: ${shown}`);
    await page.click('#username');
    await page.waitForURL(/\/@\//);
    expect(decodeURIComponent(new URL(page.url()).pathname) === `/@/${name}`, page.url());
    await page.waitForSelector('#player');
    const text = await page.textContent('#player');
    expect(text.includes(name), `the player page names ${name}`);
    await page.screenshot({ path: join(artifacts, '40-thai-name.png') });
  });

  await step('names: a name mixing Thai and Latin letters is refused with the reason', async () => {
    const other = await browser('mixed-name');
    await other.goto(env.base + '/');
    await other.click('#login-box summary');
    await other.fill('header input[name=username]', 'สมชายabc');
    await other.fill('header input[name=password]', 'correct horse battery');
    await other.click('#register');
    await other.waitForFunction(() => /one script/.test(document.body.textContent || ''), null, { timeout: 5000 });
  });
}
