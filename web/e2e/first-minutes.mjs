// Browser tests of a player's first minutes (issue 37): many players
// behind one address (an internet café) read the site without a session,
// play as guests within the address's budget, and, once it is spent, see the
// page with the login form and words saying what to do; a double click on
// "Create game" or "Play the computer" makes one game.
//
// Its own server, which counts loopback as one address like any other
// (no --exempt-loopback), so that the guest budget applies.
//
//   THAIBOARD_BIN=target/debug/thaiboard node e2e/first-minutes.mjs
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, cleanup, expect, step } from './lib.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** A server without the loopback exemption; its base URL. */
async function startCafeServer() {
  const bin = process.env.THAIBOARD_BIN;
  if (!bin) throw new Error('set THAIBOARD_BIN (the thaiboard binary)');
  const dir = mkdtempSync(join(tmpdir(), 'thaiboard-cafe-'));
  // The default request limits (per session, and per address for the
  // rest): 40 pages of one address must load under them.
  const server = spawn(bin, ['serve', '--bind', '127.0.0.1:0', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.push(() => { server.kill(); rmSync(dir, { recursive: true, force: true }); });
  return await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', d => {
      out += d;
      const m = out.match(/http:\/\/[0-9.:]+\//);
      if (m) resolve(m[0].replace(/\/$/, ''));
    });
    server.on('exit', code => reject(new Error(`server exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error('server did not start')), 30000);
  });
}

export async function firstMinutesSteps() {
  const base = await startCafeServer();
  const chrome = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  cleanup.push(() => chrome.close());
  const pages = [];
  const suffix = Math.random().toString(36).slice(2, 7);

  await step('café: 40 browsers from one address all see the lobby, with the login form, and get no session', async () => {
    for (let i = 0; i < 40; i++) {
      const ctx = await chrome.newContext({ viewport: { width: 1100, height: 800 } });
      const page = await ctx.newPage();
      page.on('pageerror', e => console.error(`[cafe-${i}] page error: ${e.message}`));
      await page.goto(base + '/');
      await page.waitForSelector('#lobby');
      await page.waitForSelector('#create button[type=submit]');
      await page.waitForSelector('#login-box summary');
      pages.push(page);
    }
    for (const page of pages) {
      const cookies = await page.context().cookies();
      expect(!cookies.some(c => c.name === 'tb_session'), 'reading the lobby made no session');
    }
    await pages[39].screenshot({ path: join(artifacts, 'first-01-cafe-lobby.png') });
  });

  await step('café: 30 of them play the computer as guests', async () => {
    for (const page of pages.slice(0, 30)) {
      await page.selectOption('#engine select[name=level]', '1');
      await page.click('#engine button[type=submit]');
      await page.waitForURL(/\/game\//);
      await page.waitForSelector('#board');
    }
  });

  await step("café: with the address's guest budget spent, the page stays, says to log in or register, and registering works", async () => {
    // Others behind the same address take the last guests of the budget.
    for (let i = 0; i < 40; i++) await fetch(base + '/api/session');
    const page = pages[30];
    await page.click('#engine button[type=submit]');
    await page.waitForSelector('#lobby-error:has-text("Log in or register")');
    expect(await page.locator('#login-box[open]').count() === 1, 'the login form is open');
    expect(await page.locator('#top nav.links').count() === 1, 'the top bar is there');
    await page.screenshot({ path: join(artifacts, 'first-02-budget-spent.png') });
    await page.fill('header input[name=username]', `cafe_${suffix}`);
    await page.fill('header input[name=password]', 'correct horse battery');
    await page.click('#register');
    await page.waitForSelector('#username');
    // Other pages still read: the tournaments, the players, the analysis board.
    const reader = pages[31];
    for (const path of ['/tournaments', '/leaderboard', '/analysis', `/@/cafe_${suffix}`]) {
      await reader.goto(base + path);
      await reader.waitForSelector('#login-box summary');
      const error = await reader.locator('#app > .error').count();
      expect(error === 0, `${path} shows an error`);
    }
  });

  await step('double clicks: "Create game" makes one challenge, "Play the computer" one game', async () => {
    const page = pages[30]; // registered above
    const name = `cafe_${suffix}`;
    await page.goto(base + '/');
    await page.waitForSelector('#lobby-live[data-connected="true"]');
    await page.dblclick('#create button[type=submit]');
    await page.waitForURL(/\/game\//);
    const open = await page.evaluate(async () => (await (await fetch('/api/lobby')).json()));
    const mine = open.filter(g => g.creator === name);
    expect(mine.length === 1, `one open challenge after a double click, not ${mine.length}`);
    await page.goto(base + '/');
    await page.selectOption('#engine select[name=level]', '1');
    await page.dblclick('#engine button[type=submit]');
    await page.waitForURL(/\/game\//);
    await page.waitForTimeout(500);
    const games = await page.evaluate(async () => (await (await fetch('/api/my-games')).json()));
    const computer = games.filter(g => (g.white ?? '').startsWith('engine') || (g.black ?? '').startsWith('engine'));
    expect(computer.length === 1, `one game against the computer after a double click, not ${computer.length}`);
  });
}

// Run alone: `node e2e/first-minutes.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) {
  try { await firstMinutesSteps(); } catch { process.exitCode = 1; }
  for (const f of cleanup.reverse()) { try { await f(); } catch { /* already gone */ } }
  if (process.exitCode) console.log('FAILED');
}
