// Browser tests of leave and public games, as a SchemingMind player meets
// them: choosing the time zone and booking leave on the account page, the
// stopped clock and "on leave until" on the game page, the leave in the
// game's overview after the move it followed, the player's page, and
// making a correspondence game public so that spectators read comments.
import { join } from 'node:path';
import { artifacts, browser, env, expect, register, replay, startGame, step } from './lib.mjs';

/** Today in `zone` as the server writes it (YYYY-MM-DD). */
function today(zone) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

export async function leaveSteps() {
  const suffix = Math.random().toString(36).slice(2, 7);
  const white = await browser('leave-white');
  // Black reads in another time zone: the leave's days stay White's.
  const black = await browser('leave-black', { timezoneId: 'America/Los_Angeles' });
  const watcher = await browser('leave-watcher');
  const whiteName = `lvw_${suffix}`, blackName = `lvb_${suffix}`;
  let id, range;

  await step('leave: a correspondence game, one move played', async () => {
    await register(white, whiteName);
    await register(black, blackName);
    id = await startGame(white, black, 'makruk', 'white', 'correspondence');
    await replay(white, black, id, ['e3e4']);
  });

  await step('leave: the account page books leave from now in the chosen time zone, and shows the allowance', async () => {
    await white.goto(env.base + '/account');
    await white.waitForSelector('#leave-years li');
    await white.selectOption('#leave-zone', 'Asia/Bangkok');
    await white.click('#leave-zone-form button[type=submit]');
    await white.waitForFunction(() => document.querySelector('#leave-zone')?.value === 'Asia/Bangkok');
    // From now to the day after tomorrow (in Bangkok): three days of the thirty.
    const [y, m, d] = today('Asia/Bangkok').split('-').map(Number);
    const last = new Date(Date.UTC(y, m - 1, d + 2)).toISOString().slice(0, 10);
    await white.fill('#leave-to', last);
    await white.click('#leave-now');
    await white.waitForSelector('#leave-periods tr.leave-running');
    // Three days of thirty (split between two years on New Year's Eve).
    const years = await white.textContent('#leave-years');
    const used = [...years.matchAll(/(\d+) days taken or booked/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(used === 3 && /, 2[78] left/.test(years), `the allowance: ${years}`);
    // A second, overlapping booking is refused in words, and changes nothing.
    await white.fill('#leave-from', today('Asia/Bangkok'));
    await white.fill('#leave-to', today('Asia/Bangkok'));
    await white.click('#leave-book');
    await white.waitForSelector('#leave-error:has-text("overlaps your leave")');
    expect(await white.locator('#leave-periods tr[data-id]').count() === 1, 'still one period of leave');
    range = (await white.textContent('#leave-periods tr.leave-running .leave-range')).trim();
    await white.screenshot({ path: join(artifacts, 'leave-01-booking.png'), fullPage: true });
  });

  await step('leave: the game page stops the clock, says who is away, and the overview shows the leave after the move', async () => {
    await black.goto(env.base + '/game/' + id);
    await black.waitForSelector('#clock-black.paused');
    // The one inclusive form of the account page, in White's time zone (not the reader's).
    await black.waitForSelector('.on-leave:has-text("on leave:")');
    const away = await black.textContent('.on-leave');
    expect(away.includes(range) && /\(3 days\)/.test(range), `game page "${away}", account "${range}"`);
    const before = await black.textContent('#clock-black');
    await black.waitForTimeout(1500);
    expect(await black.textContent('#clock-black') === before, 'a clock on leave does not tick');
    await black.click('#tab-overview');
    const row = black.locator('#overview tr.leave-taken');
    await row.waitFor();
    expect((await row.textContent()).includes(`${whiteName} on leave: ${range}`), `overview "${await row.textContent()}", account "${range}"`);
    // The leave follows White's first move: the row after it.
    const rows = await black.locator('#overview tr').evaluateAll(trs => trs.map(tr => tr.className || tr.textContent.trim().slice(0, 12)));
    const at = rows.findIndex(r => r === 'leave-taken');
    expect(at === 1, `the leave is the row after move 1: ${JSON.stringify(rows)}`);
    await black.screenshot({ path: join(artifacts, 'leave-02-overview.png'), fullPage: true });
  });

  await step("leave: the player's page tells opponents", async () => {
    await black.goto(env.base + '/@/' + whiteName);
    await black.waitForSelector('#player-leave:has-text("on leave:")');
    // The same days as the account page shows, both included, in the player's time zone.
    await white.goto(env.base + '/account');
    const range = (await white.textContent('#leave-periods tr.leave-running .leave-range')).trim();
    const shown = await black.textContent('#player-leave');
    expect(shown.includes(range) && /\(3 days\)/.test(range), `player page "${shown}", account "${range}"`);
  });

  await step('public games: comments reach spectators only once both players mark the game public', async () => {
    await white.goto(env.base + '/game/' + id);
    await white.click('#tab-overview');
    await white.fill('#comment-text', 'a quiet opening');
    await white.click('#comment-send');
    await white.waitForSelector('#overview:has-text("a quiet opening")');
    await register(watcher, `lvs_${suffix}`);
    await watcher.goto(env.base + '/game/' + id);
    await watcher.click('#tab-overview');
    await watcher.waitForSelector('#game-publicity:has-text("Private game")');
    expect(!(await watcher.textContent('#overview')).includes('a quiet opening'), 'a spectator does not read a private game\'s comments');
    await white.click('#public-mark');
    await white.waitForSelector('.publicity:has-text("becomes public when")');
    await black.goto(env.base + '/game/' + id);
    await black.click('#tab-overview');
    await black.waitForSelector(`.publicity:has-text("${whiteName} would like this game public")`);
    await black.click('#public-mark');
    await black.waitForSelector('#game-publicity:has-text("Public game")');
    await watcher.reload();
    await watcher.click('#tab-overview');
    await watcher.waitForSelector('#overview:has-text("a quiet opening")');
    await watcher.click('#tab-rules');
    await watcher.waitForSelector('#rules-public:has-text("only the two players")');
    await watcher.click('#tab-overview');
    await watcher.screenshot({ path: join(artifacts, 'leave-03-public-game.png'), fullPage: true });
  });
}
