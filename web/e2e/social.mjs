// Following players and TV: Dana follows Erin from Erin's page, sees her
// online and playing now in the lobby's panel, and her finished game in the
// feed; on TV (/tv/cambodian) the game in progress is shown with its spectator
// count, and when it ends TV moves on to the next game in progress by
// itself; the TV page on a 390-pixel phone keeps within the screen.
import { join } from 'node:path';
import { artifacts, browser, env, expect, post, register, step } from './lib.mjs';

/** `creator` challenges, `acceptor` accepts through the API: an Ouk Chatrang game without a clock (no other step of
 * the run leaves one in progress, so these are the games TV has to choose from); its id. */
async function apiGame(creator, acceptor) {
  const [s, g] = await post(creator, '/api/challenges', { variant: 'cambodian', color: 'white' });
  expect(s === 201, `challenge: ${s} ${JSON.stringify(g)}`);
  const [a, body] = await post(acceptor, `/api/games/${g.id}/accept`);
  expect(a === 200, `accept: ${a} ${JSON.stringify(body)}`);
  return g.id;
}

export async function socialSteps() {
  const suffix = Math.random().toString(36).slice(2, 7);
  const dana = await browser('i39-dana');
  const erin = await browser('i39-erin');
  const finn = await browser('i39-finn');
  const erinName = `erin_${suffix}`;
  let first;

  await step('follow a player from their page; the lobby shows them online, playing now, then their finished game', async () => {
    await register(dana, `dana_${suffix}`);
    await register(erin, erinName);
    await register(finn, `finn_${suffix}`);
    await dana.goto(`${env.base}/@/${erinName}`);
    await dana.click('#follow[data-following="false"]');
    await dana.waitForSelector('#follow[data-following="true"]');
    first = await apiGame(erin, finn);
    await erin.goto(`${env.base}/game/${first}`);
    await dana.goto(env.base + '/');
    const row = `#following li[data-name="${erinName}"]`;
    await dana.waitForSelector(`${row} .dot.on`);
    await dana.waitForSelector(`${row} a.playing-now[href="/game/${first}"]`);
    // Unfollow and follow again from her page.
    await dana.goto(`${env.base}/@/${erinName}`);
    await dana.waitForSelector('#follow-box .presence a.playing-now');
    await dana.click('#follow[data-following="true"]');
    await dana.waitForSelector('#follow[data-following="false"]');
    await dana.click('#follow');
    await dana.waitForSelector('#follow[data-following="true"]');
  });

  await step('TV shows the game in progress with its spectators, and switches to the next when it ends', async () => {
    const second = await apiGame(finn, dana);
    const tv = await browser('i39-tv');
    await tv.goto(env.base + '/tv/cambodian');
    await tv.waitForSelector('#tv[data-game]');
    const shown = await tv.getAttribute('#tv', 'data-game');
    await tv.waitForSelector('#spectators[data-count]:not([data-count="0"])');
    const watching = await tv.textContent('#spectators');
    expect(/watching/.test(watching), `the spectator count: ${watching}`);
    await tv.screenshot({ path: join(artifacts, 'i39-tv.png') });
    // Whichever of our two games TV shows, end it: TV moves on by itself.
    if (shown === first || shown === second) {
      const [loser, other] = shown === first ? [finn, second] : [dana, first];
      const [s] = await post(loser, `/api/games/${shown}/resign`);
      expect(s === 200, `resign: ${s}`);
      await tv.waitForSelector(`#tv[data-game]:not([data-game="${shown}"])`, { timeout: 15000 });
      const next = await tv.getAttribute('#tv', 'data-game');
      expect(next === other, `TV moved on from ${shown} to the other game in progress ${other}: ${next}`);
      await tv.waitForSelector(`#tv-game #board`);
    } else {
      throw new Error(`TV shows ${shown}, neither of the two games just started (${first}, ${second})`);
    }
  });

  await step('the feed lists the finished game; TV fits a 390-pixel phone', async () => {
    // Erin's game ends (if TV ended the other one): it is in Dana's feed.
    await post(finn, `/api/games/${first}/resign`);
    await dana.goto(env.base + '/');
    await dana.waitForSelector(`#feed li[data-id="${first}"]`);
    const phone = await browser('i39-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(env.base + '/tv/cambodian');
    await phone.waitForSelector('#tv');
    const scrollWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth <= 390, `nothing scrolls sideways on the phone: ${scrollWidth} pixels wide`);
  });
}
