// Browser test of the board editor (/editor) and the analysis board's FEN
// box: pieces are dragged from the palette onto the board and off it, the
// side to move is set, the FEN follows; a position the rules refuse and a
// bad typed FEN are explained (Continue disabled); "Continue from here"
// against the computer lands on a game page showing that position. The
// analysis board loads a typed FEN or says why not, and switches games.
import { join } from 'node:path';
import { artifacts, browser, env, expect, post, register, step } from './lib.mjs';

/** Centre of square `sq` on the editor's board (White at the bottom). */
async function square(page, sq) {
  const box = await page.locator('#editor-board cg-board').boundingBox();
  const file = sq.charCodeAt(0) - 97, rank = +sq[1] - 1;
  return { x: box.x + (file + 0.5) * box.width / 8, y: box.y + (7.5 - rank) * box.height / 8 };
}

/** Drags from a point to a point with the mouse. */
async function dragPoints(page, a, b) {
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

/** Drags the palette's `piece` (`white-k`, `black-m~`...) onto square `sq`. */
async function place(page, piece, sq) {
  const box = await page.locator(`.editor-palette piece[data-piece="${piece}"]`).boundingBox();
  await dragPoints(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, await square(page, sq));
}

const fenOf = page => page.inputValue('#editor-fen');

/** Waits (up to 5 s) for the FEN box to read `want` (the board tells its changes a moment later). */
async function waitFen(page, want, what) {
  for (let i = 0; i < 100; i++) {
    if (await fenOf(page) === want) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`${what}: the FEN box reads ${await fenOf(page)}, not ${want}`);
}

async function waitVerdict(page, pred, what) {
  for (let i = 0; i < 100; i++) {
    const text = await page.textContent('#editor-verdict');
    if (text && pred(text)) return text;
    await page.waitForTimeout(50);
  }
  throw new Error(`${what}: the verdict reads ${await page.textContent('#editor-verdict')}`);
}

export async function editorSteps() {
  const page = await browser('editor');
  let fen;

  await step('editor: pieces dragged on and off the board, the side to move, the FEN follows', async () => {
    await page.goto(env.base + '/editor?variant=makruk');
    await page.waitForSelector('#editor-board cg-board');
    await page.click('#editor-clear');
    await waitFen(page, '8/8/8/8/8/8/8/8 w - - 0 1', 'cleared');
    await place(page, 'white-k', 'e1');
    await place(page, 'black-k', 'e8');
    await place(page, 'white-r', 'a2');
    await waitFen(page, '4k3/8/8/8/8/8/R7/4K3 w - - 0 1', 'after three drops');
    // Dragged off the board: gone.
    const box = await page.locator('#editor-board cg-board').boundingBox();
    await dragPoints(page, await square(page, 'a2'), { x: box.x + box.width + 60, y: box.y + box.height / 2 });
    await waitFen(page, '4k3/8/8/8/8/8/8/4K3 w - - 0 1', 'after dragging the rua off');
    await place(page, 'white-m~', 'd3');
    await place(page, 'white-r', 'a2');
    await page.selectOption('#editor-turn', 'b');
    fen = '4k3/8/8/8/8/3M~4/R7/4K3 b - - 0 1';
    await waitFen(page, fen, 'a promoted bia, a rua, Black to move');
    expect(new URL(page.url()).searchParams.get('fen') === fen, `the address keeps the FEN: ${page.url()}`);
    await waitVerdict(page, t => t.includes('legal'), 'a legal position');
    expect(!(await page.isDisabled('#editor-play-computer')), 'Continue is enabled on a legal position');
  });

  await step('editor: while the server checks a changed position, its old verdict is not shown and Continue is off', async () => {
    // A slow server: the check of the next position takes a second.
    let release;
    const held = new Promise(r => { release = r; });
    await page.route('**/api/position?*', async route => { await held; await route.continue(); });
    await page.selectOption('#editor-turn', 'w');
    await waitFen(page, '4k3/8/8/8/8/3M~4/R7/4K3 w - - 0 1', 'White to move');
    await page.waitForTimeout(400); // past the check's 150 ms pause: the request is held
    const pending = await page.textContent('#editor-verdict');
    expect(!pending.includes('legal'), `the verdict of the last position is not shown for this one: ${pending}`);
    expect(await page.isDisabled('#editor-play-computer'), 'Continue is off until the server answers');
    release();
    await waitVerdict(page, t => t.includes('legal'), 'the answer for White to move');
    expect(!(await page.isDisabled('#editor-play-computer')), 'Continue is on once the server says legal');
    await page.unroute('**/api/position?*');
    await page.selectOption('#editor-turn', 'b');
    await waitFen(page, fen, 'Black to move again');
    await waitVerdict(page, t => t.includes('legal'), 'Black to move again');
  });

  await step('editor: a position the rules refuse and a bad FEN are explained, Continue disabled', async () => {
    // A bia on the last rank.
    await place(page, 'white-p', 'h8');
    const verdict = await waitVerdict(page, t => t.includes('cannot'), 'a bia on h8');
    expect(verdict.includes('h8'), `the reason names the square: ${verdict}`);
    expect(await page.isDisabled('#editor-play-computer') && await page.isDisabled('#editor-challenge'), 'Continue disabled');
    expect((await page.textContent('#editor-why')).includes('h8'), 'the reason is shown beside Continue');
    // A typed FEN with a bad side to move.
    await page.fill('#editor-fen', '4k3/8/8/8/8/8/8/4K3 x - - 0 1');
    await page.press('#editor-fen', 'Enter');
    const bad = await waitVerdict(page, t => t.includes("'x'"), 'a bad side to move');
    expect(bad.includes('side to move'), bad);
    // Typed back in: the board follows the box.
    await page.fill('#editor-fen', '4k3/8/8/8/8/8/R7/4K3 w - - 0 1');
    await page.click('#editor-load');
    await waitVerdict(page, t => t.includes('legal'), 'the typed position');
    expect(await page.locator('#editor-board cg-board piece').count() === 3, 'three pieces on the board');
    await page.screenshot({ path: join(artifacts, 'i37-editor.png'), fullPage: true });
  });

  await step('editor: Continue from here against the computer starts a game at that position', async () => {
    fen = await fenOf(page);
    await page.selectOption('#editor-color', 'white');
    await page.selectOption('#editor-level', '1');
    await page.click('#editor-play-computer');
    await page.waitForURL(/\/game\//);
    await page.waitForSelector('#board cg-board piece');
    const id = page.url().split('/').pop();
    const game = await page.evaluate(async id => (await fetch(`/api/games/${id}`)).json(), id);
    expect(game.start_fen === fen && game.fen === fen, `the game starts at ${fen}: ${game.start_fen}`);
    expect(game.rated === false, 'casual');
    expect(await page.locator('#board cg-board piece').count() === 3, 'the game page shows the three pieces');
  });

  await step('editor: an open challenge from a set-up position is marked in the lobby, with its position', async () => {
    const setUp = '4k3/8/8/8/8/8/R7/4K3 w - - 0 1';
    const maker = await browser('editor-maker');
    await register(maker, `setup_${Math.random().toString(36).slice(2, 7)}`);
    await maker.goto(env.base + '/editor?variant=makruk&fen=' + encodeURIComponent(setUp));
    await waitVerdict(maker, t => t.includes('legal'), 'the challenge position');
    await maker.selectOption('#editor-tc', 'corr');
    await maker.click('#editor-challenge');
    await maker.waitForURL(/\/game\//);
    const id = maker.url().split('/').pop();
    await page.goto(env.base + '/');
    const mark = page.locator(`#lobby tr[data-id="${id}"] .from-position`);
    await mark.waitFor({ timeout: 5000 });
    expect((await mark.getAttribute('title')) === setUp, `the mark carries the position: ${await mark.getAttribute('title')}`);
    // A challenge from the standard start carries no mark.
    const [status, plain] = await post(maker, '/api/challenges', { variant: 'makruk', time_control: { kind: 'correspondence', days: 3 } });
    expect(status === 201 || status === 200, `a plain challenge: ${status} ${JSON.stringify(plain)}`);
    await page.waitForSelector(`#lobby tr[data-id="${plain.id}"]`, { timeout: 5000 });
    expect(await page.locator(`#lobby tr[data-id="${plain.id}"] .from-position`).count() === 0, 'no mark on a standard start');
    for (const g of [id, plain.id]) await post(maker, `/api/games/${g}/cancel`);
  });

  await step('analysis board: a typed FEN loads, a bad one is explained, the variant picker switches games', async () => {
    await page.goto(env.base + '/analysis?variant=makruk');
    await page.waitForSelector('#analysis-fen');
    await page.waitForFunction(() => document.querySelector('#analysis-fen').value.startsWith('rnsmksnr'));
    await page.fill('#analysis-fen', '4k3/8/8/8/8/8/4R3/4K3 w - - 0 1');
    await page.press('#analysis-fen', 'Enter');
    await page.waitForFunction(() => document.querySelector('#analysis-error').textContent.includes('check'));
    expect(await page.locator('#board cg-board piece').count() === 32, 'the board is unchanged');
    await page.fill('#analysis-fen', '4k3/8/8/8/8/8/R7/4K3 w - - 0 1');
    await page.click('#analysis-load');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('fen') === '4k3/8/8/8/8/8/R7/4K3 w - - 0 1');
    await page.waitForFunction(() => document.querySelectorAll('#board cg-board piece').length === 3);
    await page.selectOption('#analysis-variant', 'makhos');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('variant') === 'makhos');
    await page.waitForFunction(() => document.querySelectorAll('#board cg-board piece').length === 16);
  });
}
