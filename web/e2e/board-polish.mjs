// Browser steps of a player's first minutes (issue 37): a premove is drawn
// and said, and cancelled by a click on an empty square or a right click;
// counts are shown as players count aloud (board's honour 1 to 64, pieces'
// honour from the pieces on the board plus one), in English and Thai, with
// the plies only in a tooltip.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectAccessible } from './axe.mjs';
import { artifacts, browser, cleanup, clickSquare, drag, env, expect, post, register, replay, startGame, startServer, step, tally } from './lib.mjs';

/** The premove squares marked on `page`'s board and whether they are painted. */
async function premoveSquares(page) {
  return page.locator('cg-board square.current-premove').evaluateAll(els => els.map(e => getComputedStyle(e).backgroundColor));
}

/** Runs the steps; returns the id of a game played (for the pages' checks). */
export async function premoveCountSteps(alice, bob) {
  let gameId;
  await step('a premove is drawn, said in the move box, cancelled by an empty square or a right click, and played', async () => {
    const id = gameId = await startGame(alice, bob, 'makruk', 'white', 'none');
    await alice.waitForSelector('#status:has-text("Your move")');
    await replay(alice, bob, id, ['e3e4']);
    await alice.waitForSelector('#moves .mv[data-ply="1"]');
    await alice.waitForSelector('#status:has-text("Opponent")');
    // During Black's turn White moves d3-d4: a premove.
    await drag(alice, 'd3', 'd4', 'white');
    await alice.waitForSelector('#premove:not([hidden]) #premove-text:has-text("d3–d4")');
    let marked = await premoveSquares(alice);
    expect(marked.length === 2 && marked.every(c => c !== 'rgba(0, 0, 0, 0)'), `premove squares painted: ${JSON.stringify(marked)}`);
    expect(await alice.locator('.cg-wrap svg.cg-shapes line, .cg-wrap svg.cg-shapes path').count() > 0, 'the premove has an arrow');
    await alice.screenshot({ path: join(artifacts, 'i37-premove.png') });
    // A right click cancels it.
    const c = await (async () => { const b = await alice.locator('#board cg-board').boundingBox(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; })();
    await alice.mouse.click(c.x, c.y, { button: 'right' });
    await alice.waitForSelector('#premove', { state: 'hidden' });
    expect((await premoveSquares(alice)).length === 0, 'no premove square after a right click');
    // So does a click on an empty square.
    await drag(alice, 'd3', 'd4', 'white');
    await alice.waitForSelector('#premove:not([hidden])');
    await clickSquare(alice, 'a5', 'white');
    await alice.waitForSelector('#premove', { state: 'hidden' });
    expect((await premoveSquares(alice)).length === 0, 'no premove square after a click on an empty square');
    // One left waiting is played when the turn comes.
    await drag(alice, 'd3', 'd4', 'white');
    await alice.waitForSelector('#premove:not([hidden])');
    await replay(alice, bob, id, ['e6e5'], 1);
    await alice.waitForSelector('#moves .mv[data-ply="3"]:has-text("d4")', { timeout: 5000 });
    await alice.waitForSelector('#premove', { state: 'hidden' });
  });

  await step("counts as players count them: board's honour from 1 to 64 in English and Thai, the plies in a tooltip", async () => {
    const id = await startGame(alice, bob, 'makruk', 'white', 'none');
    await alice.waitForSelector('#status:has-text("Your move")');
    const tokens = readFileSync(new URL('../../crates/server/tests/data/makruk_board_count.txt', import.meta.url), 'utf8').split(/\s+/).filter(Boolean);
    const moves = tokens.slice(0, tokens.indexOf('count:black'));
    await replay(alice, bob, id, moves);
    await bob.waitForSelector(`#moves .mv[data-ply="${moves.length}"]`, { timeout: 10000 });
    await bob.waitForSelector('#count-start');
    await bob.click('#count-start');
    await alice.waitForSelector('#count:has-text("black counts")');
    const text = (await alice.textContent('#count')).trim();
    expect(text === "black counts (board's honour): count 1 of 64", `count shown: ${text}`);
    expect(!/plies|128/.test(text), `no plies in the count: ${text}`);
    const title = await alice.getAttribute('#count', 'title');
    expect(title === "0 of 128 plies (both sides' moves)", `tooltip: ${title}`);
    await alice.screenshot({ path: join(artifacts, 'i37-count-en.png') });
    // The same in Thai.
    await Promise.all([alice.waitForEvent('load'), alice.selectOption('#lang', 'th')]);
    await alice.waitForSelector('#count:has-text("นับ")');
    const thai = (await alice.textContent('#count')).trim();
    expect(/นับ 1 จาก 64$/.test(thai), `Thai count: ${thai}`);
    await alice.screenshot({ path: join(artifacts, 'i37-count-th.png') });
    // The rules tab says the same words.
    await alice.click('#tab-rules');
    await alice.waitForSelector('#tab-panel:has-text("1 ถึง 64")');
    await Promise.all([alice.waitForEvent('load'), alice.selectOption('#lang', 'en')]);
    await alice.click('#tab-rules');
    await alice.waitForSelector('#tab-panel:has-text("from 1 to 64")');
    await bob.click('#count-stop');
  });

  await step("pieces' honour starts after the pieces on the board (the tables' verdict in the count's words)", async () => {
    if (!env.tables) { console.log('  (skipped: the server under test has no tables)'); return; }
    // Three pieces on the board: the bare khun (Black, to move) says 4, up to 16 (one ruea).
    await alice.goto(`${env.base}/analysis?variant=makruk&fen=${encodeURIComponent('3k4/8/3K4/8/8/8/8/7R b - 32 6 1')}`);
    await alice.waitForSelector('#analysis-tablebase:not(:empty)');
    const v = await alice.textContent('#analysis-tablebase');
    expect(/Loss: mated in \d+ within the count \(count 4 of 16\)/.test(v), `verdict: ${v}`);
    await alice.screenshot({ path: join(artifacts, 'i37-count-pieces-honour.png') });
  });
  return gameId;
}

/** Every page of the site, checked by axe-core (a serious or critical finding fails), and the phone's menu. */
export async function siteSteps(alice, gameId) {
  await step('axe-core finds nothing serious or critical on any page', async () => {
    const guest = await browser('axe-guest');
    await guest.goto(env.base + '/');
    await guest.waitForSelector('#login-box');
    await expectAccessible(guest, 'the lobby of a guest');
    const name = (await alice.textContent('#username')).trim().split(/\s+/).pop();
    const pages = ['/', '/my-games', '/analysis?variant=makruk', '/analysis?variant=makhos', '/editor?variant=makruk', '/editor?variant=makhos', `/game/${gameId}`, '/tournaments', '/leaderboard', '/tv', '/tv/cambodian',
      `/@/${encodeURIComponent(name)}`, '/account', '/settings', '/puzzle?variant=makruk', '/no-such-page'];
    for (const path of pages) {
      await alice.goto(env.base + path);
      await alice.waitForLoadState('load');
      await alice.waitForTimeout(500);
      await expectAccessible(alice, path);
    }
  });

  await step('on a 390-pixel phone the top bar folds its links under a menu, none cut off', async () => {
    // An open challenge with the longest row the lobby's table shows (rules option, casual, correspondence).
    const [status] = await post(alice, '/api/challenges', { variant: 'makhos', rules: 'no-reverse', rated: false, color: 'black', time_control: { kind: 'correspondence', days: 14 } });
    expect(status === 201, `the challenge is made: ${status}`);
    const phone = await browser('i37-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(env.base + '/');
    await phone.waitForSelector('#nav-menu');
    await phone.waitForSelector('#lobby tbody tr[data-id]');
    expect(!(await phone.isVisible('#nav-leaderboard')), 'the links wait under the menu');
    await phone.click('#nav-menu');
    for (const id of ['#nav-leaderboard', '#nav-settings', '#nav-tournaments']) {
      const box = await phone.locator(id).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, `${id} is on the screen: ${JSON.stringify(box)}`);
    }
    const wide = await phone.evaluate(() => [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''} (right ${Math.round(e.getBoundingClientRect().right)})`)
      .slice(0, 8));
    const scrollWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth <= 390, `nothing scrolls sideways: the page is ${scrollWidth} pixels wide; past the edge: ${wide.join(', ')}`);
    await phone.screenshot({ path: join(artifacts, 'i37-phone-menu.png') });
    await phone.click('#nav-leaderboard');
    await phone.waitForURL(/\/leaderboard/);
  });
}

// Run alone: THAIBOARD_BIN=target/debug/thaiboard node e2e/board-polish.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    if (!env.base) env.base = await startServer();
    const suffix = Math.random().toString(36).slice(2, 7);
    const alice = await browser('alice'), bob = await browser('bob');
    await register(alice, `alice_${suffix}`);
    await register(bob, `bob_${suffix}`);
    await siteSteps(alice, await premoveCountSteps(alice, bob));
  } catch { /* reported by step() */ } finally {
    env.server?.kill();
    for (const f of cleanup.reverse()) await Promise.resolve().then(f).catch(() => {});
    console.log(`${tally.passed} passed, ${tally.failed} failed`);
    process.exitCode = tally.failed ? 1 : 0;
  }
}
