// Browser tests of the ways into and on from a game (issue 37): quick
// pairing (two players click the same pool button and land in one game;
// Cancel takes a player out), and the buttons after a game.
//
//   THAIBOARD_BIN=target/debug/thaiboard node e2e/play.mjs   (this file alone)
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifacts, browser, cleanup, env, expect, post, register, startServer, step, tally } from './lib.mjs';

/** Players waiting in pool `variant` `clock`, as GET /api/pools says. */
async function waitingIn(page, variant, clock) {
  return page.evaluate(async ([variant, clock]) => {
    const l = await (await fetch('/api/pools')).json();
    return l.pools.find(p => p.variant === variant && p.clock === clock).waiting;
  }, [variant, clock]);
}

export async function playSteps() {
  const suffix = Math.random().toString(36).slice(2, 7);
  const ann = await browser('pool-ann');
  const ben = await browser('pool-ben');

  await step('pools: two players click the same pool button and land in one game', async () => {
    await register(ann, `pann_${suffix}`);
    await register(ben, `pben_${suffix}`);
    for (const p of [ann, ben]) {
      await p.goto(env.base + '/');
      await p.waitForSelector('#pools button.pool[data-clock="5+3"]');
    }
    await ann.selectOption('#pool-variant', 'makhos');
    await ben.selectOption('#pool-variant', 'makhos');
    await ann.click('#pools button.pool[data-clock="5+3"]');
    await ann.waitForSelector('#pool-status:has-text("5+3")');
    await ann.screenshot({ path: join(artifacts, 'pools-waiting.png') });
    await ben.click('#pools button.pool[data-clock="5+3"]');
    await ann.waitForURL(/\/game\//, { timeout: 10000 });
    await ben.waitForURL(/\/game\//, { timeout: 10000 });
    expect(ann.url() === ben.url(), `one game: ${ann.url()} and ${ben.url()}`);
    const g = await ann.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), ann.url().split('/').pop());
    expect(g.variant === 'makhos' && g.time_control.initial_ms === 300000 && g.time_control.increment_ms === 3000, `the pool's game: ${JSON.stringify(g.time_control)} ${g.variant}`);
    const names = [g.white.username, g.black.username].sort().join(' ');
    expect(names === [`pann_${suffix}`, `pben_${suffix}`].sort().join(' '), `players: ${names}`);
    await ann.waitForSelector('#board cg-board');
    await ann.screenshot({ path: join(artifacts, 'pools-paired-game.png') });
  });

  await step('after a live game: "New opponent" beside the rematch waits in the same pool, and pairs the two again', async () => {
    const id = ann.url().split('/').pop();
    await post(ann, `/api/games/${id}/resign`);
    for (const p of [ann, ben]) {
      await p.waitForSelector('#controls #rematch');
      await p.waitForSelector('#controls #new-opponent');
    }
    await ben.screenshot({ path: join(artifacts, 'after-live-game.png') });
    await ann.click('#new-opponent');
    await ann.waitForURL(env.base + '/');
    await ann.waitForSelector('#pool-status:has-text("5+3")');
    await ben.click('#new-opponent');
    await ann.waitForURL(/\/game\//, { timeout: 10000 });
    await ben.waitForURL(/\/game\//, { timeout: 10000 });
    expect(ann.url() === ben.url() && !ann.url().endsWith(id), `a new game for both: ${ann.url()} ${ben.url()}`);
  });

  await step('after a game against the computer: "Play again" starts the same game anew', async () => {
    await ann.goto(env.base + '/');
    await ann.selectOption('#engine select[name=variant]', 'cambodian');
    await ann.selectOption('#engine select[name=color]', 'black');
    await ann.selectOption('#engine select[name=tc]', 'none');
    await ann.selectOption('#engine select[name=level]', '2');
    await ann.click('#engine button[type=submit]');
    await ann.waitForURL(/\/game\//);
    const first = ann.url().split('/').pop();
    await post(ann, `/api/games/${first}/resign`);
    await ann.waitForSelector('#controls #play-again');
    await ann.waitForSelector('#controls #new-opponent');
    await ann.screenshot({ path: join(artifacts, 'after-computer-game.png') });
    await ann.click('#play-again');
    await ann.waitForURL(u => /\/game\//.test(u.toString()) && !u.toString().endsWith(first));
    const g = await ann.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), ann.url().split('/').pop());
    expect(g.variant === 'cambodian' && g.white?.id === 'engine2' && g.black?.username === `pann_${suffix}` && g.time_control.kind === 'none',
      `the same settings: ${g.variant} ${g.white?.id} ${g.black?.username} ${g.time_control.kind}`);
  });

  await step('pools: Cancel, or leaving the page, takes a player out of the pool', async () => {
    await ann.goto(env.base + '/');
    await ann.click('#pools button.pool[data-clock="1+0"]');
    await ann.waitForSelector('#pool-cancel');
    expect(await waitingIn(ann, 'makruk', '1+0') === 1, 'waiting after the click');
    await ann.click('#pool-cancel');
    await ann.waitForSelector('#pool-cancel', { state: 'detached' });
    await ann.waitForFunction(async () => {
      const l = await (await fetch('/api/pools')).json();
      return l.pools.find(p => p.variant === 'makruk' && p.clock === '1+0').waiting === 0;
    });
    // Waiting again, then away to another page.
    await ann.click('#pools button.pool[data-clock="1+0"]');
    await ann.waitForSelector('#pool-cancel');
    await ann.goto(env.base + '/leaderboard');
    await ann.waitForFunction(async () => {
      const l = await (await fetch('/api/pools')).json();
      return l.pools.find(p => p.variant === 'makruk' && p.clock === '1+0').waiting === 0;
    }, null, { timeout: 5000 });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    if (!env.base) env.base = await startServer();
    await playSteps();
  } catch {
    // reported by step()
  } finally {
    for (const f of cleanup.reverse()) { try { await f(); } catch {} }
    if (env.server) env.server.kill('SIGKILL');
  }
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exit(tally.failed || !tally.passed ? 1 : 0);
}
