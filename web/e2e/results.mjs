// Browser tests of how games read once over, and of the lobby's headers:
// the lobby's panel and table headers are set apart; a Mak-hot game won by
// capturing every piece says so (not "no moves left"); an analysed game shows
// the ?!/?/?? marks in its main move list and "Checkmate" (not an evaluation
// at depth 0) for the mated position.
import { join } from 'node:path';
import { expectAccessible } from './axe.mjs';
import { artifacts, browser, env, expect, register, replay, startGame, step } from './lib.mjs';

/** A Mak-hot game (default rules) in which White captures Black's last piece (the server test's line). */
const MAKHOS_ALL_CAPTURED = 'b2a3 c7b6 d2c3 d8c7 c3b4 b6c5 b4d6 c7e5 f2e3 e5d4 e3c5 e7d6 c5e7 f8d6 h2g3 g7f6 g3f4 d6e5 f4d6 b8c7 d6b8 f6e5 b8f4 h8g7 c1b2 g7f6 e1d2 f6e5 f4d6 a7b6 d2c3 b6c5 d6b4';

/** A Makruk game that ends with Black's checkmate (the server's variants test). */
const MAKRUK_MATE = ['a3a4', 'g8e7', 'b3b4', 'g6g5', 'b1d2', 'e7d5', 'g1e2', 'd5e3'];

export async function resultsSteps() {
  const suffix = Math.random().toString(36).slice(2, 7);
  const white = await browser('results-white');
  const black = await browser('results-black');

  await step('lobby: the panel headers and the table headers are set apart from the rows', async () => {
    await register(white, `rw_${suffix}`);
    await register(black, `rb_${suffix}`);
    await white.goto(env.base + '/');
    await white.waitForSelector('#lobby thead th');
    const look = await white.evaluate(() => {
      const th = getComputedStyle(document.querySelector('#lobby thead th'));
      const td = document.querySelector('#lobby tbody td');
      const h2 = getComputedStyle(document.querySelector('.lobby-panel h2'));
      return { thCase: th.textTransform, thBg: th.backgroundColor, thWeight: th.fontWeight, h2Line: h2.borderBottomWidth, h2Style: h2.borderBottomStyle,
        h2Colour: h2.color, bodyColour: getComputedStyle(document.body).color, tdBg: td ? getComputedStyle(td).backgroundColor : 'rgba(0, 0, 0, 0)' };
    });
    expect(look.thCase === 'uppercase' && look.thBg !== look.tdBg && Number(look.thWeight) >= 700, `table headers: ${JSON.stringify(look)}`);
    expect(parseFloat(look.h2Line) >= 2 && look.h2Style === 'solid' && look.h2Colour !== look.bodyColour, `panel headers: ${JSON.stringify(look)}`);
    await white.screenshot({ path: join(artifacts, 'i37-lobby-headers.png') });
    await expectAccessible(white, 'the lobby');
    // On a 390-pixel phone the styled headers keep within the screen.
    const phone = await browser('results-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(env.base + '/');
    await phone.waitForSelector('#lobby thead th');
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width <= 390, `the phone's lobby is ${width} pixels wide`);
  });

  await step('Mak-hot: a game won by capturing every piece says so', async () => {
    const id = await startGame(white, black, 'makhos', 'white', 'none');
    await replay(white, black, id, MAKHOS_ALL_CAPTURED.split(' '));
    await black.goto(env.base + '/game/' + id);
    await black.waitForSelector('#result:text-is("1-0 — every piece captured")');
    expect(!(await black.textContent('#result')).includes('no moves'), 'not "no moves left"');
    await Promise.all([black.waitForEvent('load'), black.selectOption('#lang', 'th')]);
    await black.waitForSelector('#result:text-is("1-0 — กินหมากหมดกระดาน")');
    await Promise.all([black.waitForEvent('load'), black.selectOption('#lang', 'en')]);
  });

  await step('analysis: the ?!/?/?? marks in the main move list, and "Checkmate" for the mated position', async () => {
    const id = await startGame(white, black, 'makruk', 'white', 'none');
    await replay(white, black, id, MAKRUK_MATE);
    await white.goto(env.base + '/game/' + id);
    await white.waitForSelector('#result:has-text("checkmate")');
    await white.click('#tab-analysis');
    await white.click('#analyse');
    await white.waitForSelector('#analysis-here', { timeout: 60000 });
    await white.waitForFunction(() => !document.querySelector('#analysis-progress'), null, { timeout: 90000 });
    const marks = await white.locator('#moves .mv .mark').allTextContents();
    expect(marks.length > 0 && marks.every(m => ['?!', '?', '??'].includes(m)), `marks in the move list: ${JSON.stringify(marks)}`);
    // The list's marks are the analysis's judgements, move for move.
    const judged = await white.locator('#judgements li').allTextContents();
    expect(judged.length === marks.length, `${marks.length} marks, ${judged.length} judgements: ${judged}`);
    // White let Black mate: White's last move is a blunder.
    expect(await white.locator('#moves .mv[data-ply="7"] .mark.blunder').count() === 1, 'the move that allows mate is marked ??');
    await white.click('#nav-end');
    await white.waitForSelector('#analysis-here:has-text("Checkmate")');
    const here = await white.textContent('#analysis-here');
    expect(!/depth 0|-20\.00/.test(here), `the mated position: ${here}`);
    await white.screenshot({ path: join(artifacts, 'i37-analysis-marks.png') });
  });
}
