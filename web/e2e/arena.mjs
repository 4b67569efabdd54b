// Browser tests of arenas as lichess plays them: the arena page takes a
// player to the pairing made while it is open; in the game, the Berserk
// button halves the player's clock and the opponent sees it; after the game
// the page counts down "Next game in 5…" and goes to the next pairing by
// itself, unless the player chooses to stay.
import { join } from 'node:path';
import { artifacts, browser, env, expect, post, register, step } from './lib.mjs';

export async function arenaSteps() {
  const suffix = Math.random().toString(36).slice(2, 7);
  const alice = await browser('arena-alice');
  const bob = await browser('arena-bob');
  let url, first;

  await step('arena: the arena page takes both players to the pairing made while it is open', async () => {
    await register(alice, `aa_${suffix}`);
    await register(bob, `ab_${suffix}`);
    const [status, t] = await post(alice, '/api/tournaments', {
      name: `Berserk arena ${suffix}`, variant: 'makruk', kind: 'arena', duration_minutes: 30,
      time_control: { kind: 'live', minutes: 3, increment: 2 },
    });
    expect(status === 201, `create: ${status} ${JSON.stringify(t)}`);
    url = `${env.base}/tournaments/${t.id}`;
    for (const p of [alice, bob]) {
      const [s] = await post(p, `/api/tournaments/${t.id}/join`);
      expect(s === 200, `join: ${s}`);
    }
    await bob.goto(url);
    await bob.waitForSelector('#standings');
    await alice.goto(url);
    await alice.click('#start');
    // Nobody clicks a game link: both pages go to the new game.
    await alice.waitForURL(/\/game\//, { timeout: 10000 });
    await bob.waitForURL(/\/game\//, { timeout: 10000 });
    first = alice.url().split('/').pop();
    expect(bob.url().endsWith(first), `both in the same game: ${alice.url()} ${bob.url()}`);
  });

  await step('arena: Berserk halves the clock before the first move; the opponent sees it; it is gone after', async () => {
    // Who is White?
    await alice.waitForSelector('#berserk');
    const game = await alice.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), first);
    const whiteIsAlice = game.white.username === `aa_${suffix}`;
    const [white, black] = whiteIsAlice ? [alice, bob] : [bob, alice];
    expect((await white.textContent('#clock-white')).includes('3:00'), `before: ${await white.textContent('#clock-white')}`);
    await white.click('#berserk');
    await white.waitForSelector('#clock-white:has-text("1:30")');
    await white.waitForSelector('#berserk', { state: 'detached' });
    // The opponent sees it: the mark, the move list's note and the clock.
    await black.waitForSelector('.berserk-marks:has-text("White went berserk")');
    await black.waitForSelector('#moves .note:has-text("White goes berserk")');
    await black.waitForSelector('#clock-white:has-text("1:30")');
    expect((await black.textContent('#clock-black')).includes('3:00'), 'Black keeps the full time');
    await black.screenshot({ path: join(artifacts, 'i37-berserk.png') });
    // A second berserk is refused by the server, in words.
    const [s, e] = await post(white, `/api/games/${first}/berserk`);
    expect(s === 409 && e.error === 'already_berserk' && /already gone berserk/.test(e.message), `${s} ${JSON.stringify(e)}`);
    // White moves: Black still may go berserk, White no longer shows the button.
    const [m] = await post(white, `/api/games/${first}/move`, { move: 'e3e4' });
    expect(m === 200, `move: ${m}`);
    await black.waitForSelector('#moves .mv[data-ply="1"]');
    expect(await black.locator('#berserk').count() === 1, 'Black may still go berserk');
    const [m2] = await post(black, `/api/games/${first}/move`, { move: 'e6e5' });
    expect(m2 === 200, `move: ${m2}`);
    await black.waitForSelector('#moves .mv[data-ply="2"]');
    expect(await black.locator('#berserk').count() === 0, 'no Berserk after one\'s first move');
  });

  await step('arena: after the game "Next game in 5…", then each page goes to the next pairing by itself (or stays)', async () => {
    bob.once('dialog', d => d.accept());
    await bob.click('#resign');
    await alice.waitForSelector('#next-countdown:has-text("Next game in")', { timeout: 10000 });
    await bob.waitForSelector('#next-countdown');
    await alice.screenshot({ path: join(artifacts, 'i37-arena-countdown.png') });
    // Bob stays on this page; Alice is taken on.
    await bob.click('#arena-stay');
    await bob.waitForSelector('#next-game-link');
    await alice.waitForURL(u => !u.toString().endsWith(first), { timeout: 10000 });
    const second = alice.url().split('/').pop();
    expect(second !== first, 'a new game');
    await alice.waitForSelector('#tournament-link');
    expect(bob.url().endsWith(first), `Bob stayed: ${bob.url()}`);
    expect((await bob.getAttribute('#next-game-link', 'href')) === `/game/${second}`, 'the link goes to the same next game');
    // The standings show the berserk game (the loss scores nothing more).
    await bob.goto(url);
    await bob.waitForSelector('#standings th:has-text("Berserk")');
  });
}
