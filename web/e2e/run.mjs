// Browser end-to-end test: two players in two headless Chromium browsers
// (Debian's /usr/bin/chromium driven by playwright-core) register, create and
// accept a Makruk game, move by drag-and-drop and by typing, see each other's
// moves arrive, navigate the history and download the PGN.
//
//   THAIBOARD_BIN=target/debug/thaiboard node e2e/run.mjs   (starts its own server)
//   BASE_URL=http://127.0.0.1:8080 node e2e/run.mjs          (uses a running one)
//
// Screenshots go to e2e/artifacts/.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const artifacts = new URL('./artifacts/', import.meta.url).pathname;
mkdirSync(artifacts, { recursive: true });
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let server;
let base = process.env.BASE_URL;
const cleanup = [];

async function startServer() {
  const bin = process.env.THAIBOARD_BIN;
  if (!bin) throw new Error('set THAIBOARD_BIN (the thaiboard binary) or BASE_URL');
  const dir = mkdtempSync(join(tmpdir(), 'thaiboard-e2e-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  server = spawn(bin, ['serve', '--bind', '127.0.0.1:0', '--data-dir', dir, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
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

async function browser(name) {
  const dir = mkdtempSync(join(tmpdir(), `thaiboard-${name}-`));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1200, height: 850 }, acceptDownloads: true,
  });
  cleanup.push(() => ctx.close());
  const page = ctx.pages()[0] ?? await ctx.newPage();
  pages.push(page);
  page.on('pageerror', e => console.error(`[${name}] page error: ${e.message}`));
  return page;
}

let passed = 0, failed = 0;
const pages = [];
async function step(name, fn) {
  try { await fn(); passed++; console.log(`ok - ${name}`); }
  catch (e) {
    failed++;
    console.log(`FAILED - ${name}: ${e.stack || e}`);
    for (const [i, p] of pages.entries()) await p.screenshot({ path: join(artifacts, `failure-${i}.png`) }).catch(() => {});
    throw e;
  }
}
function expect(cond, msg) { if (!cond) throw new Error(msg); }

/** Centre of square `sq` on the board of `page`, seen from `orientation`. */
async function squareCenter(page, sq, orientation = 'white') {
  const box = await page.locator('#board cg-board').boundingBox();
  const file = sq.charCodeAt(0) - 97, rank = +sq[1] - 1;
  const x = orientation === 'white' ? file : 7 - file;
  const y = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + (x + 0.5) * box.width / 8, y: box.y + (y + 0.5) * box.height / 8 };
}

async function drag(page, from, to, orientation) {
  const a = await squareCenter(page, from, orientation), b = await squareCenter(page, to, orientation);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

async function register(page, name) {
  await page.goto(base + '/');
  await page.fill('header input[name=username]', name);
  await page.fill('header input[name=password]', 'correct horse battery');
  await page.click('#register');
  await page.waitForSelector('#username');
}

async function run() {
  if (!base) base = await startServer();
  const alice = await browser('alice');
  const bob = await browser('bob');
  const suffix = Math.random().toString(36).slice(2, 7);
  let gameUrl;

  await step('register two players', async () => {
    await register(alice, `alice_${suffix}`);
    await register(bob, `bob_${suffix}`);
    await alice.screenshot({ path: join(artifacts, '01-lobby.png') });
  });

  await step('create a Makruk challenge and accept it from the lobby', async () => {
    await alice.selectOption('select[name=variant]', 'makruk');
    await alice.selectOption('select[name=color]', 'white');
    await alice.selectOption('select[name=tc]', 'live');
    await alice.fill('input[name=minutes]', '10');
    await alice.fill('input[name=increment]', '5');
    await alice.click('#create button[type=submit]');
    await alice.waitForURL(/\/game\//);
    gameUrl = alice.url();
    const id = gameUrl.split('/').pop();
    await bob.goto(base + '/');
    await bob.click(`#lobby tr[data-id="${id}"] button.accept`);
    await bob.waitForURL(/\/game\//);
    await bob.waitForSelector('#status:has-text("Opponent")');
    await alice.waitForSelector('#status:has-text("Your move")');
    await alice.screenshot({ path: join(artifacts, '02-game-start.png') });
  });

  await step('white moves by drag and drop; the move arrives at black', async () => {
    await drag(alice, 'e3', 'e4', 'white');
    await bob.waitForSelector('#moves .mv[data-ply="1"]:has-text("e4")', { timeout: 5000 });
    await bob.waitForSelector('#status:has-text("Your move")');
    await bob.screenshot({ path: join(artifacts, '03-black-sees-e4.png') });
  });

  await step('black moves by typing SAN; the move arrives at white', async () => {
    await bob.fill('#move-input', 'e5');
    await bob.press('#move-input', 'Enter');
    await alice.waitForSelector('#moves .mv[data-ply="2"]:has-text("e5")', { timeout: 5000 });
  });

  await step('an illegal typed move is refused with a message', async () => {
    await alice.fill('#move-input', 'Ke5');
    await alice.press('#move-input', 'Enter');
    await alice.waitForSelector('#game-error:not(:empty)');
  });

  await step('black moves by drag and drop from its own side; white by clicking', async () => {
    await alice.fill('#move-input', 'g3g4');
    await alice.press('#move-input', 'Enter');
    await bob.waitForSelector('#moves .mv[data-ply="3"]');
    await drag(bob, 'b6', 'b5', 'black');
    await alice.waitForSelector('#moves .mv[data-ply="4"]:has-text("b5")', { timeout: 5000 });
    const a = await squareCenter(alice, 'g1'), b = await squareCenter(alice, 'e2');
    await alice.mouse.click(a.x, a.y);
    await alice.mouse.click(b.x, b.y);
    await bob.waitForSelector('#moves .mv[data-ply="5"]:has-text("Ne2")', { timeout: 5000 });
    await alice.screenshot({ path: join(artifacts, '04-after-five-moves.png') });
  });

  await step('navigate the move list', async () => {
    await alice.click('#nav-start');
    const start = await alice.inputValue('#fen');
    expect(start.startsWith('rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w'), `start FEN shown: ${start}`);
    await alice.click('#nav-forward');
    expect((await alice.inputValue('#fen')).includes('4P3'), 'after e4');
    await alice.screenshot({ path: join(artifacts, '05-history-ply-1.png') });
    await alice.click('#flip');
    await alice.click('#nav-end');
    await alice.click('#flip');
    expect(await alice.locator('#moves .mv.current').textContent() === 'Ne2', 'at the end');
  });

  await step('download the PGN', async () => {
    const [download] = await Promise.all([alice.waitForEvent('download'), alice.click('#export-pgn')]);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.includes('[Variant "makruk"]') && text.includes('1. e4 e5 2. g4 b5 3. Ne2'), `PGN: ${text}`);
  });

  await step('draw offered by white, accepted by black', async () => {
    await alice.click('#draw-offer');
    await bob.waitForSelector('#draw-accept');
    await bob.click('#draw-accept');
    await alice.waitForSelector('#result:has-text("1/2-1/2")');
    await alice.screenshot({ path: join(artifacts, '06-draw.png') });
  });

  await step('my games lists the game', async () => {
    await alice.goto(base + '/my-games');
    await alice.waitForSelector('#my-games');
    await alice.screenshot({ path: join(artifacts, '07-my-games.png') });
  });

  await step('a Mak-hot game shows its board and takes a move', async () => {
    await bob.goto(base + '/');
    await bob.selectOption('select[name=variant]', 'makhos');
    await bob.selectOption('select[name=color]', 'black');
    await bob.selectOption('select[name=tc]', 'correspondence');
    await bob.click('#create button[type=submit]');
    await bob.waitForURL(/\/game\//);
    const id = bob.url().split('/').pop();
    await alice.goto(base + '/game/' + id);
    await alice.click('#accept');
    await alice.waitForSelector('#status:has-text("Your move")');
    await drag(alice, 'b2', 'c3', 'white');
    await bob.waitForSelector('#moves .mv[data-ply="1"]:has-text("b2-c3")', { timeout: 5000 });
    await bob.screenshot({ path: join(artifacts, '08-makhos.png') });
  });
}

try {
  await run();
} catch {
  // reported by step()
} finally {
  for (const f of cleanup.reverse()) { try { await f(); } catch {} }
  if (server) server.kill('SIGKILL');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || !passed ? 1 : 0);
