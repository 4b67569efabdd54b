// Browser steps of the puzzle page: a player solves a puzzle (the server's
// reply is played between their moves, and the rating rises), fails the
// next one (the solution is shown, the rating falls, retry and next are
// offered), plays a streak to its first mistake (an account's best streak is
// kept by the server and shown after a reload; a guest's by the browser);
// the lobby shows the daily
// puzzles; the page fits a 390-pixel phone. The steps use whatever puzzles
// the server has (they read the solution from the API).
//
//   THAIBOARD_BIN=target/debug/thaiboard node e2e/puzzles.mjs
import { join } from 'node:path';
import { expectAccessible } from './axe.mjs';
import { artifacts, browser, cleanup, drag, env, expect, register, startServer, step, tally } from './lib.mjs';

/** The puzzle the page shows, as the API answers it. */
async function shown(page) {
  await page.waitForSelector('#puzzle-info[data-id]');
  const id = await page.$eval('#puzzle-info', e => e.dataset.id);
  return page.evaluate(async id => (await fetch(`/api/puzzle/${id}`)).json(), id);
}

const squaresOf = uci => [uci.slice(0, 2), uci.slice(2, 4)];

/** Plays the solution's moves on the board, waiting for each reply. */
async function solve(page, p) {
  const sol = p.puzzle.solution;
  for (let i = 0; i < sol.length; i += 2) {
    await page.waitForSelector(`#puzzle-status[data-ply="${i}"]`);
    const [from, to] = squaresOf(sol[i]);
    await drag(page, from, to, p.puzzle.color);
  }
}

/** Plays a legal first move that is not right. */
async function failFirst(page, p) {
  await page.waitForSelector('#puzzle-status[data-ply="0"]');
  const wrong = await page.evaluate(async p => {
    const q = new URLSearchParams({ variant: p.game.variant, rules: p.game.rules, fen: p.puzzle.fen });
    const legal = (await (await fetch(`/api/position?${q}`)).json()).legal;
    for (const m of legal) {
      if (m.uci === p.puzzle.solution[0] || m.uci.length > 4) continue;
      q.set('moves', m.uci);
      const after = await (await fetch(`/api/position?${q}`)).json();
      if (after.result === 'ongoing') return m.uci;
    }
    return null;
  }, p);
  expect(wrong, `a wrong legal move in ${p.puzzle.id}`);
  const [from, to] = squaresOf(wrong);
  await drag(page, from, to, p.puzzle.color);
}

export async function puzzleSteps() {
  const page = await browser('puzzler');
  await register(page, `pz_${Math.random().toString(36).slice(2, 7)}`);

  await step('the lobby shows a daily puzzle of each game', async () => {
    await page.goto(env.base + '/');
    await page.waitForFunction(() => document.querySelectorAll('#daily-puzzles a.daily-puzzle').length === 3, null, { timeout: 10000 });
    await expectAccessible(page, 'the lobby with its daily puzzles');
    await page.click('#daily-puzzles a[data-variant="makruk"]');
    await page.waitForURL(/\/puzzle\//);
    await page.waitForSelector('#puzzle-info[data-id]');
  });

  let first;
  await step('a puzzle solved right: the reply comes, the puzzle is solved, the rating rises', async () => {
    await page.goto(env.base + '/puzzle?variant=makruk');
    first = await shown(page);
    await solve(page, first);
    await page.waitForSelector('#puzzle-status[data-outcome="solved"]');
    const rating = await page.textContent('#puzzle-rating', { timeout: 5000 });
    expect(/\(\+\d+\)/.test(rating), `the rating rises: ${rating}`);
    await page.waitForSelector('#puzzle-retry');
    await expectAccessible(page, 'a solved puzzle');
    await page.screenshot({ path: join(artifacts, 'i39-puzzle.png') });
  });

  await step('a wrong move fails the puzzle: the solution is shown, the rating falls, retry and next', async () => {
    await page.click('#puzzle-next');
    await page.waitForFunction(id => document.querySelector('#puzzle-info')?.dataset.id !== id, first.puzzle.id);
    const p = await shown(page);
    await failFirst(page, p);
    await page.waitForSelector('#puzzle-status[data-outcome="failed"]');
    const solution = await page.textContent('#puzzle-solution');
    expect(solution.includes(p.puzzle.solution[0]), `the solution is shown: ${solution}`);
    const rating = await page.textContent('#puzzle-rating', { timeout: 5000 });
    expect(/\(-\d+\)/.test(rating), `the rating falls: ${rating}`);
    // Retry: the same puzzle again, solved now, not rated again.
    await page.click('#puzzle-retry');
    await page.waitForSelector('#puzzle-status[data-ply="0"]:not([data-outcome])');
    await solve(page, p);
    await page.waitForSelector('#puzzle-status[data-outcome="solved"]');
    const again = await page.textContent('#puzzle-rating', { timeout: 5000 });
    expect(!/\([+-]\d+\)/.test(again), `a retry is not rated: ${again}`);
  });

  /** Plays a streak: solves its first puzzle, fails the second. */
  async function streakOfOne(page) {
    await page.goto(env.base + '/puzzle?mode=streak&variant=makruk');
    const p1 = await shown(page);
    await solve(page, p1);
    await page.waitForSelector('#puzzle-continue');
    expect((await page.textContent('#puzzle-streak')).includes('1'), 'one solved');
    await page.click('#puzzle-continue');
    await page.waitForFunction(id => document.querySelector('#puzzle-info')?.dataset.id !== id, p1.puzzle.id);
    const p2 = await shown(page);
    expect(p2.puzzle.rating >= p1.puzzle.rating, `rising ratings: ${p1.puzzle.rating}, ${p2.puzzle.rating}`);
    await failFirst(page, p2);
    await page.waitForSelector('#puzzle-streak-over');
    await page.waitForSelector('#puzzle-new-streak');
  }

  await step('a streak: puzzles until the first mistake; the best is kept by the server and shown after a reload', async () => {
    await streakOfOne(page);
    await page.waitForSelector('#puzzle-best[data-best="1"]', { timeout: 5000 });
    const text = await page.textContent('#puzzle-best');
    expect(text === 'Your best: 1', `the best is shown: ${text}`);
    // The server keeps it, not the browser: gone from this browser's storage, it comes back on a reload.
    expect(await page.evaluate(() => localStorage.getItem('thaiboard.puzzleStreak.makruk')) === null, 'an account keeps no best in the browser');
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.waitForSelector('#puzzle-info[data-id]');
    await page.waitForSelector('#puzzle-best[data-best="1"]', { timeout: 5000 });
    const server = await page.evaluate(async () => (await fetch('/api/puzzle/streak?variant=makruk')).json());
    expect(server.best === 1, `the server's best: ${JSON.stringify(server.best)}`);
  });

  await step("a guest's best streak is kept in the browser and survives a reload", async () => {
    const guest = await browser('puzzle-guest');
    await streakOfOne(guest);
    await guest.waitForSelector('#puzzle-best[data-best="1"]', { timeout: 5000 });
    expect(await guest.evaluate(() => localStorage.getItem('thaiboard.puzzleStreak.makruk')) === '1', "the guest's best is in the browser");
    await guest.reload();
    await guest.waitForSelector('#puzzle-info[data-id]');
    await guest.waitForSelector('#puzzle-best[data-best="1"]', { timeout: 5000 });
  });

  await step('the puzzle page fits a 390-pixel phone, in Thai', async () => {
    const phone = await browser('puzzle-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'th-TH' });
    await phone.goto(env.base + '/puzzle?variant=makhos');
    await phone.waitForSelector('#puzzle-info[data-id]');
    const title = await phone.textContent('.puzzle h2');
    expect(title === 'ปริศนาหมาก', `the page is in Thai: ${title}`);
    const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(wide <= 390, `nothing scrolls sideways: ${wide}`);
    const board = await phone.locator('#board').boundingBox();
    expect(board && board.x >= 0 && board.x + board.width <= 390, `the board is on the screen: ${JSON.stringify(board)}`);
    await expectAccessible(phone, 'the puzzle page on a phone, in Thai');
    await phone.screenshot({ path: join(artifacts, 'i39-puzzle-phone.png') });
  });
}

// Run alone: node e2e/puzzles.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    if (!env.base) env.base = await startServer();
    await puzzleSteps();
  } catch { /* the failed step said why */ } finally {
    for (const f of cleanup.reverse()) await f();
    env.server?.kill();
    console.log(`${tally.passed} passed, ${tally.failed} failed`);
    process.exit(tally.failed ? 1 : 0);
  }
}
