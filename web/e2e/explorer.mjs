// The opening explorer on the analysis board: the rated games played
// earlier in the run (Alice and Bob's draw opened with e4) are listed at
// the start with their results; the filters narrow them (an empty engine
// database, a rating band no game reached); a click on a move plays it.
import { join } from 'node:path';
import { artifacts, browser, env, expect, step } from './lib.mjs';

export async function explorerSteps() {
  const page = await browser('explorer');
  await step('the opening explorer on the analysis board: moves, filters, a click plays the move', async () => {
    await page.goto(env.base + '/analysis?variant=makruk');
    const e4 = '#explorer-moves tr.explorer-move[data-uci="e3e4"]';
    await page.waitForSelector(e4, { timeout: 10000 });
    const row = await page.textContent(e4);
    expect(/e4/.test(row) && /\d+ \(\d+%\)/.test(row), `e4 with its games and share: ${row}`);
    expect(await page.locator(`${e4} .result-bar`).count() === 1, 'a result bar');
    await page.screenshot({ path: join(artifacts, '30-explorer.png') });
    // A band no game of the run reached: nothing; back to any rating: e4 again.
    await page.selectOption('#explorer-band', '2500');
    await page.waitForSelector('#explorer-empty');
    await page.selectOption('#explorer-band', '0');
    await page.waitForSelector(e4);
    // The engine database is empty on a new server.
    await page.selectOption('#explorer-db', 'engine');
    await page.waitForSelector('#explorer-empty');
    await page.selectOption('#explorer-db', 'site');
    // The filter is kept across pages.
    await page.check('#explorer-speed-ultra_bullet');
    await page.reload();
    await page.waitForSelector('#explorer-speed-ultra_bullet:checked');
    await page.waitForSelector('#explorer-empty');
    await page.uncheck('#explorer-speed-ultra_bullet');
    await page.waitForSelector(e4);
    // A click plays the move on the board and shows the position after it.
    await page.click(e4);
    await page.waitForSelector('#analysis-moves .mv:has-text("e4")');
    await page.waitForFunction(() => / b /.test(document.querySelector('#analysis-fen')?.value ?? ''));
  });
}
