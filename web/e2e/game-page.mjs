// Browser tests of the game page and the analysis board as a lichess or
// pychess player meets them: each defect once reported is checked here (the
// move list with comments, the analysis board's list, no foreign position on
// a board, error messages in words, the 404 page and the icon, the small
// things), and the main flows again on a phone-sized screen (390×844).
import { join } from 'node:path';
import { artifacts, browser, drag, env, expect, post, register, replay, startGame, step } from './lib.mjs';

/** Posts JSON to `path` from `page`'s session; returns [status, body]. */

/** The move list's cells as the eye sees them: [text, column (0, 1, 2 by x), row (by y)]. */
async function moveGrid(page, selector) {
  const cells = await page.locator(`${selector} > div:not(.note)`).evaluateAll(els => els.map(e => {
    const r = e.getBoundingClientRect();
    return { text: e.textContent.trim(), x: Math.round(r.x), y: Math.round(r.y), ply: e.dataset.ply ?? null };
  }));
  const xs = [...new Set(cells.map(c => c.x))].sort((a, b) => a - b);
  const ys = [...new Set(cells.map(c => c.y))].sort((a, b) => a - b);
  return cells.map(c => ({ ...c, col: xs.indexOf(c.x), row: ys.indexOf(c.y) }));
}

/** Checks that every White move is in the middle column and every Black move in the right one. */
function expectAligned(grid, what) {
  for (const c of grid.filter(c => c.ply)) {
    const want = Number(c.ply) % 2 === 1 ? 1 : 2;
    expect(c.col === want, `${what}: move ${c.ply} (${c.text}) is in column ${c.col}, not ${want}: ${JSON.stringify(grid.map(g => [g.text, g.col]))}`);
  }
}

/** Records whether a piece only chess has (bishop, queen) is ever drawn on `page`. */
async function watchForeignPieces(page) {
  await page.addInitScript(() => {
    window.__foreign = [];
    new MutationObserver(records => {
      for (const r of records) for (const n of r.addedNodes) {
        if (n.nodeType === 1 && n.matches?.('piece.b-piece, piece.q-piece')) window.__foreign.push(n.className);
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

export async function gamePageSteps() {
  const suffix = Math.random().toString(36).slice(2, 7);
  const white = await browser('gp-white');
  const black = await browser('gp-black');
  await watchForeignPieces(white);
  await watchForeignPieces(black);
  let id;

  await step('a Makruk board never draws a position that is not its own (no chess start on creating or opening a game)', async () => {
    await register(white, `gpw_${suffix}`);
    await register(black, `gpb_${suffix}`);
    id = await startGame(white, black, 'makruk', 'white', 'live');
    await white.waitForSelector('#board piece');
    await replay(white, black, id, ['e3e4', 'd6d5', 'e4d5', 'c6c5', 'b1d2', 'e6e5']);
    await black.goto(`${env.base}/game/${id}`);
    await black.waitForSelector('#moves .mv[data-ply="6"]');
    for (const p of [white, black]) {
      const seen = await p.evaluate(() => window.__foreign);
      expect(seen.length === 0, `chess pieces were drawn: ${seen}`);
    }
  });

  await step('a comment after White\'s move keeps the move list in its columns, after a reload too', async () => {
    const [status] = await post(white, `/api/games/${id}/comments`, { ply: 3, text: 'a fine capture', private: false });
    expect(status === 201 || status === 200, `comment: ${status}`);
    for (const reload of [false, true]) {
      if (reload) await white.reload(); else await white.goto(`${env.base}/game/${id}`);
      await white.waitForSelector('#moves .note:has-text("a fine capture")');
      const grid = await moveGrid(white, '#moves');
      expectAligned(grid, reload ? 'after a reload' : 'with a comment');
      // Black's answer to the commented move starts its row with its number and "…".
      const black2 = grid.find(c => c.ply === '4');
      const row = grid.filter(c => c.row === black2.row).map(c => c.text);
      expect(row[0] === '2.' && row[1] === '…', `Black's move after the comment: ${row}`);
    }
    await white.screenshot({ path: join(artifacts, 'gp-01-comment-move-list.png') });
  });

  await step('the analysis board, opened from the game, carries its moves in aligned columns', async () => {
    await white.click('#nav-start');
    await white.click('#nav-forward');
    await white.click('#nav-forward');
    await white.click('#open-analysis');
    await white.waitForURL(/\/analysis\?/);
    await white.waitForSelector('#analysis-moves .mv[data-ply="6"]');
    expect(new URL(white.url()).searchParams.get('at') === '2', `the position shown comes along: ${white.url()}`);
    const current = await white.textContent('#analysis-moves .mv.current');
    expect(current === 'd5', `the move shown is marked: ${current}`);
    const grid = await moveGrid(white, '#analysis-moves');
    expectAligned(grid, 'analysis board');
    const first = grid.filter(c => c.row === 0).map(c => c.text);
    expect(first.join(' ') === '1. e4 d5', `first row: ${first}`);
    // Going on from the middle of the line keeps the moves after it.
    await white.keyboard.press('ArrowRight');
    await white.waitForSelector('#analysis-moves .mv.current:has-text("exd5")');
    expect(await white.locator('#analysis-moves .mv').count() === 6, 'the whole line stays');
    await white.screenshot({ path: join(artifacts, 'gp-02-analysis-from-game.png') });
  });

  await step('the analysis board\'s engine runs on the server: its line deepens, in SAN, and follows the position shown', async () => {
    await white.goto(`${env.base}/analysis?variant=makruk&moves=e3e4,d6d5`);
    await white.waitForSelector('#analysis-moves .mv[data-ply="2"]');
    await white.check('#analysis-engine');
    await white.waitForSelector('#engine-line .engine-eval');
    await white.waitForFunction(() => /depth ([4-9]|\d\d)/.test(document.querySelector('#engine-line')?.textContent ?? ''), null, { timeout: 20000 });
    const line = await white.textContent('#engine-line .engine-pv');
    expect(/^2\. [a-hKMSNR]/.test(line) && !/[a-h][1-8][a-h][1-8]/.test(line), `the line in SAN from move 2: ${line}`);
    await white.keyboard.press('ArrowLeft');
    await white.waitForFunction(() => /^1\. … |^1… /.test(document.querySelector('#engine-line .engine-pv')?.textContent ?? ''), null, { timeout: 20000 });
    await white.screenshot({ path: join(artifacts, 'gp-13-live-engine.png') });
    await white.uncheck('#analysis-engine');
    await white.waitForFunction(() => !document.querySelector('#engine-line')?.textContent);
  });

  await step('a position that cannot be read shows an empty board and the reason at the top', async () => {
    await white.goto(`${env.base}/analysis?variant=makruk&fen=hello%20world`);
    await white.waitForSelector('#analysis-error:not(:empty)');
    expect(await white.locator('#board piece:not(.ghost)').count() === 0, 'no pieces on the board');
    const err = await white.locator('#analysis-error').boundingBox();
    const board = await white.locator('#board').boundingBox();
    expect(err.y < board.y + board.height / 2, `the error is near the top (${err.y}), not under the page`);
    expect((await white.evaluate(() => window.__foreign)).length === 0, 'no chess pieces');
  });

  await step('errors in words: time controls and a typed square in capitals', async () => {
    const [s, body] = await post(white, '/api/challenges', { variant: 'makruk', time_control: { kind: 'live', minutes: 0 } });
    expect(s === 400 && body.message.includes('between 1 second and 6 hours'), `${s} ${JSON.stringify(body)}`);
    expect(!/0\.0166/.test(body.message), 'no raw fractions');
    const [s2, body2] = await post(white, '/api/challenges', { variant: 'makruk', time_control: { kind: 'correspondence', days: 0.01 } });
    expect(s2 === 400 && body2.message.includes('between 1 hour and 60 days'), JSON.stringify(body2));
    const g = await startGame(white, black, 'makruk', 'white', 'live');
    await white.goto(`${env.base}/game/${g}`);
    await white.fill('#move-input', 'E4');
    await white.press('#move-input', 'Enter');
    await white.waitForSelector('#game-error:has-text("small letter")');
    const text = await white.textContent('#game-error');
    expect(text.includes('e4, not E4') && text.includes('SAN'), text);
    await white.screenshot({ path: join(artifacts, 'gp-03-typed-error.png') });
  });

  await step('a comment being typed is kept when the opponent\'s move redraws the tabs', async () => {
    const g = await startGame(white, black, 'makruk', 'white', 'live');
    await white.goto(`${env.base}/game/${g}`);
    await white.waitForSelector('#comment-text');
    await white.fill('#comment-text', 'half a thought');
    await replay(white, black, g, ['e3e4', 'd6d5']);
    await white.waitForSelector('#overview tr:has-text("d5")');
    const kept = await white.inputValue('#comment-text');
    expect(kept === 'half a thought', `the typed comment after the redraw: "${kept}"`);
    expect(await white.evaluate(() => document.activeElement?.id) === 'comment-text', 'the box keeps the focus');
  });

  await step('chat: the players talk, spectators apart, HTML shown as text, a report, a mute', async () => {
    const g = await startGame(white, black, 'makruk', 'white', 'live');
    await white.goto(`${env.base}/game/${g}`);
    await black.goto(`${env.base}/game/${g}`);
    const spectator = await browser('gp-spectator');
    await register(spectator, `gps_${suffix}`);
    await spectator.goto(`${env.base}/game/${g}`);
    await white.fill('#chat-input', '<img src=x onerror="window.__pwned=1">hello');
    await white.press('#chat-input', 'Enter');
    await black.waitForSelector('#chat-lines .chat-text:has-text("hello")');
    expect(await black.locator('#chat-lines img').count() === 0, 'no element made from a message');
    expect(!(await black.evaluate(() => window.__pwned)), 'no script ran');
    const shown = await black.textContent('#chat-lines .chat-text');
    expect(shown === '<img src=x onerror="window.__pwned=1">hello', `shown as typed: ${shown}`);
    await spectator.fill('#chat-input', 'who wins?');
    await spectator.press('#chat-input', 'Enter');
    await spectator.waitForSelector('#chat-lines .chat-text:has-text("who wins?")');
    expect(await spectator.locator('#chat-lines .chat-text:has-text("hello")').count() === 0, 'spectators do not read the players');
    await black.waitForTimeout(300);
    expect(await black.locator('#chat-lines .chat-text:has-text("who wins?")').count() === 0, 'players do not read the spectators while playing');
    // A message too long is refused with the reason; the box keeps it.
    await white.evaluate(() => { document.getElementById('chat-input').removeAttribute('maxlength'); });
    await white.fill('#chat-input', 'x'.repeat(200));
    await white.press('#chat-input', 'Enter');
    await white.waitForSelector('#chat-error:has-text("1 to 140 characters")');
    black.once('dialog', d => d.accept('rude'));
    await black.click('#chat-lines .chat-report');
    await black.waitForSelector('#chat-lines .chat-report[disabled]');
    await black.screenshot({ path: join(artifacts, 'gp-07-chat.png') });
    await black.check('#chat-mute');
    expect(!(await black.locator('#chat-lines').isVisible()), 'muted: the chat is hidden');
    await black.reload();
    await black.waitForSelector('#chat');
    expect(!(await black.locator('#chat-lines').isVisible()), 'the mute is remembered');
    await black.uncheck('#chat-mute');
  });

  await step('after the game ends the move box goes; live games have no conditional-moves tab', async () => {
    await white.goto(`${env.base}/game/${id}`);
    await white.waitForSelector('#move-input', { state: 'visible' });
    expect(await white.locator('.tab:has-text("Conditional")').count() === 0, 'no conditional moves in a live game');
    white.once('dialog', d => d.accept());
    await white.click('#resign');
    await white.waitForSelector('#result');
    await white.waitForSelector('#move-input', { state: 'hidden' });
  });

  await step('the PGN names the date, the time control and the game\'s address', async () => {
    const pgn = await white.evaluate(async id => (await fetch(`/api/games/${id}/pgn`)).text(), id);
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '.');
    expect(pgn.includes(`[Date "${today}"]`), pgn);
    expect(/\[TimeControl "\d+\+\d+"\]/.test(pgn), pgn);
    expect(pgn.includes(`[Site "${env.base}/game/${id}"]`), pgn);
  });

  await step('a waiting challenge names its challenger in their seat; the lobby heading says what it lists', async () => {
    await white.goto(env.base + '/');
    await white.selectOption('#create select[name=color]', 'black');
    await white.click('#create button[type=submit]');
    await white.waitForURL(/\/game\//);
    await white.waitForSelector('.player:has-text("waiting for an opponent")');
    const bars = await white.locator('.player').allTextContents();
    expect(bars.some(b => b.includes(`gpw_${suffix}`)) && bars.some(b => b.includes('waiting for an opponent')), `seats: ${bars}`);
    await white.goto(env.base + '/');
    const heading = await white.textContent('#lobby-live');
    expect(!/^\(live\)$/.test(heading.trim()), `heading: ${heading}`);
  });

  await step('unknown addresses get our own 404 page; the site has an icon', async () => {
    const resp = await white.goto(`${env.base}/no/such/page`);
    expect(resp.status() === 404, `status ${resp.status()}`);
    await white.waitForSelector('#not-found:has-text("Page not found")');
    expect(await white.locator('header#top').count() === 1, 'the site\'s header is there');
    const icon = await white.evaluate(async () => { const r = await fetch('/favicon.ico'); return [r.status, r.headers.get('content-type')]; });
    expect(icon[0] === 200 && icon[1].startsWith('image/svg'), `favicon: ${icon}`);
    const api404 = await white.evaluate(async () => { const r = await fetch('/api/no-such-thing'); return [r.status, (await r.json()).error]; });
    expect(api404[0] === 404 && api404[1] === 'not_found', `API 404: ${api404}`);
    await white.screenshot({ path: join(artifacts, 'gp-04-not-found.png') });
  });

  await step('settings: board colours, carved pieces, no coordinates, kept with the account in another browser', async () => {
    await white.goto(env.base + '/settings');
    await white.selectOption('#set-theme', 'green');
    await white.waitForSelector('#settings-saved:has-text("account")');
    await white.selectOption('#set-pieces', 'carved');
    await white.waitForFunction(() => document.body.classList.contains('pieces-carved'));
    await white.uncheck('#set-coords');
    await white.waitForFunction(() => document.body.classList.contains('no-coords'));
    await white.screenshot({ path: join(artifacts, 'gp-08-settings.png') });
    await white.goto(`${env.base}/game/${id}`);
    await white.waitForSelector('#board piece.k-piece');
    const image = await white.locator('#board piece.k-piece.white').first().evaluate(e => getComputedStyle(e).backgroundImage);
    expect(image.includes('/pieces/carved/white-k.svg'), `carved pieces: ${image}`);
    expect(!(await white.locator('#board coords').first().isVisible()), 'no coordinates');
    await white.screenshot({ path: join(artifacts, 'gp-09-carved-green.png') });
    // Another browser logging in to the same account gets them.
    const other = await browser('gp-white-2');
    await other.goto(env.base + '/');
    await other.click('#login-box summary');
    await other.fill('header input[name=username]', `gpw_${suffix}`);
    await other.fill('header input[name=password]', 'correct horse battery');
    await other.click('#login');
    await other.waitForSelector('#username');
    await other.waitForFunction(() => document.body.classList.contains('theme-green') && document.body.classList.contains('pieces-carved'));
    // Back to the defaults for the steps that follow.
    await white.goto(env.base + '/settings');
    await white.selectOption('#set-pieces', 'thaiboard');
    await white.check('#set-coords');
    await white.selectOption('#set-theme', 'wood');
    await white.waitForSelector('#settings-saved:has-text("account")');
  });

  await step('sounds: a move, a capture and the end of the game are heard; volume 0 is silent', async () => {
    const g = await startGame(white, black, 'makruk', 'white', 'live');
    await white.goto(`${env.base}/game/${g}`);
    await black.goto(`${env.base}/game/${g}`);
    await white.waitForSelector('#board piece');
    await replay(white, black, g, ['e3e4', 'd6d5']);
    await white.waitForFunction(() => window.thaiboardSounds.includes('move'));
    await replay(white, black, g, ['e4d5'], 2);
    await black.waitForFunction(() => window.thaiboardSounds.includes('capture'));
    black.once('dialog', d => d.accept());
    await black.click('#resign');
    await white.waitForFunction(() => window.thaiboardSounds.includes('end'));
    await white.goto(env.base + '/settings');
    await white.fill('#set-volume', '0');
    await white.dispatchEvent('#set-volume', 'change');
    await white.waitForSelector('#settings-saved:not(:empty)');
    const volume = await white.evaluate(async () => (await (await fetch('/api/account/settings')).json()).volume);
    expect(volume === 0, `volume kept: ${volume}`);
    await white.uncheck('#set-sounds');
    await white.waitForFunction(async () => (await (await fetch('/api/account/settings')).json()).sounds === false);
    await white.check('#set-sounds');
    await white.fill('#set-volume', '70');
    await white.dispatchEvent('#set-volume', 'change');
  });

  await step('a premove made during the opponent\'s turn is played when the turn comes', async () => {
    const g = await startGame(white, black, 'makruk', 'white', 'live');
    await white.goto(`${env.base}/game/${g}`);
    await black.goto(`${env.base}/game/${g}`);
    await black.waitForSelector('#board piece');
    // Black drags e6-e5 while White thinks: a premove, not dropped.
    await drag(black, 'e6', 'e5', 'black');
    await black.waitForSelector('#board square.current-premove');
    await replay(white, black, g, ['a3a4']);
    await white.waitForSelector('#moves .mv[data-ply="2"]:has-text("e5")', { timeout: 10000 });
    // A premove that White's move makes illegal is dropped, and the player told.
    await replay(white, black, g, ['d3d4', 'h6h5'], 2);
    await black.waitForSelector('#moves .mv[data-ply="4"]');
    await drag(black, 'd6', 'd5', 'black');
    await black.waitForSelector('#board square.current-premove');
    await replay(white, black, g, ['d4d5'], 4);
    await black.waitForSelector('#game-error:has-text("premove")');
    expect(await black.locator('#moves .mv[data-ply="6"]').count() === 0, 'the dropped premove was not sent');
    expect(await black.locator('#board square.current-premove').count() === 0, 'no premove left');
  });

  await step('moves wait for a confirmation in correspondence games (the default), not in live ones', async () => {
    const g = await startGame(white, black, 'makruk', 'white', 'correspondence');
    await white.goto(`${env.base}/game/${g}`);
    await white.waitForSelector('#board piece');
    await drag(white, 'e3', 'e4');
    await white.waitForSelector('#confirm-text:has-text("Play e4?")');
    expect(await white.locator('#moves .mv').count() === 0, 'not sent before the confirmation');
    await white.click('#cancel-move');
    expect(await white.locator('#moves .mv').count() === 0, 'cancelled: not sent');
    await drag(white, 'e3', 'e4');
    await white.click('#confirm-move');
    await white.waitForSelector('#moves .mv[data-ply="1"]:has-text("e4")');
    await white.screenshot({ path: join(artifacts, 'gp-10-confirmed.png') });
  });

  await step('a takeback in a casual game: proposed, agreed, the board and the move list as they stood', async () => {
    const g = (await post(white, '/api/challenges', { variant: 'makruk', color: 'white', rated: false, time_control: { kind: 'live', minutes: 10, increment: 0 } }))[1].id;
    await post(black, `/api/games/${g}/accept`, {});
    await white.goto(`${env.base}/game/${g}`);
    await black.goto(`${env.base}/game/${g}`);
    await replay(white, black, g, ['e3e4', 'd6d5', 'e4d5']);
    await black.waitForSelector('#moves .mv[data-ply="3"]');
    await white.click('#takeback-offer');
    await black.waitForSelector('#takeback-accept');
    await black.screenshot({ path: join(artifacts, 'gp-11-takeback-proposed.png') });
    await black.click('#takeback-accept');
    await white.waitForSelector('#moves .note:has-text("taken back")');
    expect(await white.locator('#moves .mv').count() === 2, 'the move taken back is gone from the list');
    await white.waitForSelector('#status:has-text("Your move")');
    const fen = await white.inputValue('#fen');
    expect(fen.startsWith('rnsmksnr/8/ppp1pppp/3p4/4P3/'), `the position before exd5: ${fen}`);
  });

  await step('in-page notifications: a challenge by name, then a correspondence game waiting for my move', async () => {
    await black.goto(env.base + '/my-games');
    await black.waitForTimeout(300);
    const [, made] = await post(white, '/api/challenges', { variant: 'makruk', color: 'white', opponent: `gpb_${suffix}`, time_control: { kind: 'correspondence', days: 3 } });
    await black.waitForSelector(`#notifications .note-item[data-kind="challenge"] a[href="/game/${made.id}"]`);
    await black.screenshot({ path: join(artifacts, 'gp-12-notification.png') });
    await post(black, `/api/games/${made.id}/accept`, {});
    await replay(white, black, made.id, ['e3e4']);
    await black.waitForSelector(`#notifications .note-item[data-kind="your_turn"] a[href="/game/${made.id}"]`);
    await black.click(`#notifications .note-item[data-kind="your_turn"] a`);
    await black.waitForURL(new RegExp(`/game/${made.id}$`));
  });

  await step('the account page\'s e-mail section says when the server sends no mail, and refuses to save then', async () => {
    await white.goto(env.base + '/account');
    await white.waitForSelector('#email-state:has-text("sends no e-mail")');
    await white.fill('#email-input', 'someone@example.com');
    await white.click('#email-form button[type=submit]');
    await white.waitForSelector('#email-error:has-text("--smtp")');
  });

  await step('a guest sees no "next game"; captured pieces and the FEN box are readable', async () => {
    const guest = await browser('gp-guest');
    await guest.goto(`${env.base}/game/${id}`);
    await guest.waitForSelector('#moves .mv');
    expect(await guest.locator('#next-game').count() === 0, 'no next game for a guest');
    const fen = await guest.locator('#fen').boundingBox();
    expect(fen.width >= 300, `FEN box ${fen.width}px wide`);
    await guest.click('.tab:has-text("Material")');
    const img = await guest.locator('img.captured').first().boundingBox();
    expect(img.width >= 24, `captured pieces ${img.width}px`);
  });

  await step('on a phone (390×844): the bar on two lines at most, the board clear of both edges, a game played', async () => {
    const phone = await browser('gp-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await register(phone, `gpp_${suffix}`);
    const header = await phone.locator('header#top').boundingBox();
    expect(header.height <= 90, `the top bar is ${header.height}px high`);
    const g = await startGame(phone, black, 'makruk', 'white', 'live');
    await phone.goto(`${env.base}/game/${g}`);
    await replay(phone, black, g, ['e3e4', 'd6d5']);
    await phone.waitForSelector('#moves .mv[data-ply="2"]');
    const board = await phone.locator('#board').boundingBox();
    expect(board.x >= 8 && board.x + board.width <= 390 - 8, `board from ${board.x} to ${board.x + board.width}`);
    const scroll = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll <= 390, `the page scrolls sideways (${scroll}px)`);
    await phone.screenshot({ path: join(artifacts, 'gp-05-phone-game.png'), fullPage: true });
    await phone.goto(`${env.base}/analysis?variant=makruk`);
    await phone.waitForSelector('#board piece');
    const aboard = await phone.locator('#board').boundingBox();
    expect(aboard.x + aboard.width <= 390 - 8, 'the analysis board is clear of the edge');
    await phone.goto(env.base + '/');
    await phone.screenshot({ path: join(artifacts, 'gp-06-phone-lobby.png'), fullPage: true });
  });
}
