// Shared helpers of the browser tests (run.mjs and the suites it runs):
// the server, browsers, steps with screenshots on failure, and moves on the board.
import { chromium } from 'playwright-core';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const artifacts = new URL('./artifacts/', import.meta.url).pathname;
mkdirSync(artifacts, { recursive: true });
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The server under test (`env.base`), the process if this test started it, and whether it has endgame tables. */
export const env = { base: process.env.BASE_URL, server: null, tables: false };
export const cleanup = [];

export async function startServer() {
  const bin = process.env.THAIBOARD_BIN;
  if (!bin) throw new Error('set THAIBOARD_BIN (the thaiboard binary) or BASE_URL');
  const dir = mkdtempSync(join(tmpdir(), 'thaiboard-e2e-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  // Makruk endgame tables of three pieces (a few seconds) for the analysis board's verdict.
  const tables = join(dir, 'tables');
  const gen = spawnSync(bin, ['tb', 'gen', '--variant', 'makruk', '--pieces', '3', '--out', tables], { stdio: 'ignore' });
  if (gen.status !== 0) throw new Error(`tb gen exited with ${gen.status}`);
  env.tables = true;
  const server = env.server = spawn(bin, ['serve', '--bind', '127.0.0.1:0', '--data-dir', dir, '--rate-limit', '0', '--exempt-loopback', '--tablebases', tables], { stdio: ['ignore', 'pipe', 'inherit'] });
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

export async function browser(name, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), `thaiboard-${name}-`));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1200, height: 850 }, acceptDownloads: true, ...options,
  });
  cleanup.push(() => ctx.close());
  const page = ctx.pages()[0] ?? await ctx.newPage();
  pages.push(page);
  page.on('pageerror', e => console.error(`[${name}] page error: ${e.message}`));
  return page;
}

/** Steps passed and failed so far. */
export const tally = { passed: 0, failed: 0 };
const pages = [];
export async function step(name, fn) {
  try { await fn(); tally.passed++; console.log(`ok - ${name}`); }
  catch (e) {
    tally.failed++;
    console.log(`FAILED - ${name}: ${e.stack || e}`);
    for (const [i, p] of pages.entries()) await p.screenshot({ path: join(artifacts, `failure-${i}.png`) }).catch(() => {});
    throw e;
  }
}
export function expect(cond, msg) { if (!cond) throw new Error(msg); }

/** Centre of square `sq` on the board of `page`, seen from `orientation`. */
export async function squareCenter(page, sq, orientation = 'white') {
  const box = await page.locator('#board cg-board').boundingBox();
  const file = sq.charCodeAt(0) - 97, rank = +sq[1] - 1;
  const x = orientation === 'white' ? file : 7 - file;
  const y = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + (x + 0.5) * box.width / 8, y: box.y + (y + 0.5) * box.height / 8 };
}

export async function drag(page, from, to, orientation) {
  const a = await squareCenter(page, from, orientation), b = await squareCenter(page, to, orientation);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

/** POSTs `body` as JSON to `path` from `page`, as the page's own user (with its CSRF token); returns `[status, json or null]`. */
export async function post(page, path, body = {}) {
  return page.evaluate(async ([path, body]) => {
    const s = await (await fetch('/api/session')).json();
    const r = await fetch(path, { method: 'POST', headers: { 'x-csrf-token': s.csrf, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return [r.status, await r.json().catch(() => null)];
  }, [path, body]);
}

/** Plays `moves` in game `id` through the API, each from the page of the side to move. */
export async function replay(white, black, id, moves, firstPly = 0) {
  for (const [i, mv] of moves.entries()) {
    const [status, body] = await post((firstPly + i) % 2 === 0 ? white : black, `/api/games/${id}/move`, { move: mv });
    expect(status === 200, `move ${i} ${mv}: ${status} ${JSON.stringify(body)}`);
  }
}

/** `creator` makes a challenge from the lobby's "New game" form and `acceptor` accepts it on the game page; returns its id. */
export async function startGame(creator, acceptor, variant, color, tc) {
  await creator.goto(env.base + '/');
  await creator.selectOption('#create select[name=variant]', variant);
  await creator.selectOption('#create select[name=color]', color);
  await creator.selectOption('#create select[name=tc]', tc);
  await creator.click('#create button[type=submit]');
  await creator.waitForURL(/\/game\//);
  const id = creator.url().split('/').pop();
  await acceptor.goto(env.base + '/game/' + id);
  await acceptor.click('#accept');
  await acceptor.waitForSelector('#status:not(:has-text("Waiting"))');
  return id;
}

export async function clickSquare(page, sq, orientation = 'white') {
  const c = await squareCenter(page, sq, orientation);
  await page.mouse.click(c.x, c.y);
}

export async function register(page, name) {
  await page.goto(env.base + '/');
  await page.click('#login-box summary');
  await page.fill('header input[name=username]', name);
  await page.fill('header input[name=password]', 'correct horse battery');
  await page.click('#register');
  await page.waitForSelector('#username');
}

