// Browser test of "Practise this ending", on a phone: the analysis board
// shows the button for a position the server's endgame tables cover (the
// Makruk tables of three pieces the test server is started with), the player
// picks a side and lands on a game against the tables' perfect play, plays a
// few moves on the board against the server's replies, and the game page
// shows the count as players say it. A position the tables do not cover, and
// a game the server has no tables of, disable the button with the reason
// (also in the board editor).
import { join } from 'node:path';
import { artifacts, browser, clickSquare, env, expect, step } from './lib.mjs';

/** A rook against a bare khun, the pieces' honour count running (6 plies of 32): mate in 27 plies, the count's last. */
const ROOK_ENDING = '8/8/8/3k4/8/8/8/R3K3 w - 32 6 1';

/** The tables' move in game `id` for the side to move (the player's perfect move), read from the page. */
async function tablesMove(page, id) {
  return page.evaluate(async id => {
    const g = await (await fetch(`/api/games/${id}`)).json();
    const q = new URLSearchParams({ variant: g.variant, fen: g.fen });
    const a = await (await fetch(`/api/tablebase?${q}`)).json();
    return a.moves[0].uci;
  }, id);
}

export async function practiceSteps() {
  if (!env.tables) { console.log('  (skipped: practice needs a server with endgame tables)'); return; }
  const phone = await browser('practice-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  let id;

  await step('practice: the analysis board offers "Practise this ending" where the tables cover the position', async () => {
    await phone.goto(env.base + `/analysis?variant=makruk&fen=${encodeURIComponent(ROOK_ENDING)}`);
    await phone.waitForSelector('#analysis-tablebase:has-text("Win")');
    await phone.waitForSelector('#practice-start:not([disabled])');
    expect(await phone.inputValue('#practice-color') === 'white', 'the winning side is chosen first');
    const box = await phone.locator('#practice-start').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, `the button is on the phone's screen: ${JSON.stringify(box)}`);
    await phone.screenshot({ path: join(artifacts, 'practice-analysis.png') });
    await phone.click('#practice-start');
    await phone.waitForURL(/\/game\//);
    id = phone.url().split('/').pop();
    await phone.waitForSelector('#board cg-board');
  });

  await step('practice: three moves on the board, each answered by the tables\' defence; the count as players say it', async () => {
    for (let n = 1; n <= 3; n++) {
      const uci = await tablesMove(phone, id);
      await clickSquare(phone, uci.slice(0, 2));
      await clickSquare(phone, uci.slice(2, 4));
      // The player's move and the computer's reply.
      await phone.waitForSelector(`#moves .mv >> nth=${2 * n - 1}`, { timeout: 15000 });
    }
    const g = await phone.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
    expect(g.status === 'ongoing' && g.black.username === 'engine-level-8', `a game against the tables: ${g.status} ${g.black?.username}`);
    // Three pieces on the board: Black counts from 4; after its three replies it has said 6 of 16.
    await phone.waitForSelector('#count:has-text("6 of 16")');
    expect((await phone.textContent('#count')).includes("pieces' honour"), await phone.textContent('#count'));
    await phone.screenshot({ path: join(artifacts, 'practice-game.png') });
  });

  await step('practice: outside the tables, or a game without tables, the button is disabled with the reason', async () => {
    await phone.goto(env.base + '/analysis?variant=makruk');
    await phone.waitForSelector('#practice-why:has-text("do not cover")');
    expect(await phone.isDisabled('#practice-start'), 'disabled outside the tables');
    await phone.goto(env.base + `/analysis?variant=makhos&rules=default&fen=${encodeURIComponent('W:WKb8,Kd8:BKh2')}`);
    await phone.waitForSelector('#practice-why:has-text("no endgame tables")');
    expect(await phone.isDisabled('#practice-start'), 'disabled without tables');
    // The board editor: the same panel follows the position set up.
    await phone.goto(env.base + `/editor?variant=makruk&fen=${encodeURIComponent(ROOK_ENDING)}`);
    await phone.waitForSelector('#practice-start:not([disabled])');
    await phone.goto(env.base + '/editor?variant=makruk');
    await phone.waitForSelector('#practice-why:has-text("do not cover")');
    expect(await phone.isDisabled('#practice-start'), 'the start position is no ending');
  });
}

// Run alone: THAIBOARD_BIN=target/debug/thaiboard node e2e/practice.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  const { cleanup, startServer, tally } = await import('./lib.mjs');
  try {
    if (!env.base) env.base = await startServer();
    await practiceSteps();
  } catch { /* reported by step() */ } finally {
    env.server?.kill();
    for (const f of cleanup.reverse()) await Promise.resolve().then(f).catch(() => {});
    console.log(`${tally.passed} passed, ${tally.failed} failed`);
    process.exitCode = tally.failed ? 1 : 0;
  }
}
