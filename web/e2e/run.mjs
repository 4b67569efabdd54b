// Browser end-to-end test: two players in two headless Chromium browsers
// (Debian's /usr/bin/chromium driven by playwright-core) register, create and
// accept a Makruk game from the live lobby, move by drag-and-drop and by
// typing, see each other's moves and clocks, navigate the history, download
// the PGN, agree a draw, abort a game, start and stop a Makruk count, enter a
// Mak-hot multi-capture square by square; a guest plays the computer and resigns,
// then uses the game's tabs (comment, material, rules, GIF, analysis, explorer, tags)
// and the analysis board (with the endgame tables' verdict, and "Practise this
// ending" against them); a reader switches the interface to Thai and the
// board to Thai notation (coordinates, moves, typed moves, a flipped board);
// two players play a round-robin tournament and an arena; a player enrols
// two-factor and signs a device out from the account page.
//
//   THAIBOARD_BIN=target/debug/thaiboard node e2e/run.mjs   (starts its own server)
//   BASE_URL=http://127.0.0.1:8080 node e2e/run.mjs          (uses a running one)
//
// Screenshots go to e2e/artifacts/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, browser, cleanup, clickSquare, drag, env, expect, register, replay, squareCenter, startGame, startServer, step, tally } from './lib.mjs';
import { gamePageSteps } from './game-page.mjs';
import { explorerSteps } from './explorer.mjs';
import { socialSteps } from './social.mjs';
import { leaveSteps } from './leave.mjs';
import { firstMinutesSteps } from './first-minutes.mjs';
import { namesSteps } from './names.mjs';
import { playSteps } from './play.mjs';
import { premoveCountSteps, siteSteps } from './board-polish.mjs';
import { accountSecuritySteps } from './account-security.mjs';
import { puzzleSteps } from './puzzles.mjs';
import { editorSteps } from './editor.mjs';
import { arenaSteps } from './arena.mjs';
import { resultsSteps } from './results.mjs';
import { practiceSteps } from './practice.mjs';

async function run() {
  let carol; // the guest who plays the computer, then studies the game
  if (!env.base) env.base = await startServer();
  const alice = await browser('alice');
  const bob = await browser('bob');
  const suffix = Math.random().toString(36).slice(2, 7);
  let gameUrl;

  await step('register two players', async () => {
    await register(alice, `alice_${suffix}`);
    await register(bob, `bob_${suffix}`);
    await alice.screenshot({ path: join(artifacts, '01-lobby.png') });
  });

  await step('a challenge appears in the lobby live and disappears when withdrawn', async () => {
    await bob.goto(env.base + '/');
    await bob.waitForSelector('#lobby-live[data-connected="true"]');
    await alice.selectOption('#create select[name=variant]', 'cambodian');
    await alice.click('#create button[type=submit]');
    await alice.waitForURL(/\/game\//);
    const id = alice.url().split('/').pop();
    await bob.waitForSelector(`#lobby tr[data-id="${id}"]`, { timeout: 5000 });
    await bob.screenshot({ path: join(artifacts, '01b-lobby-live.png') });
    await alice.goto(env.base + '/');
    await alice.click(`#lobby tr[data-id="${id}"] button.cancel`);
    await bob.waitForSelector(`#lobby tr[data-id="${id}"]`, { state: 'detached', timeout: 5000 });
  });

  await step('create a Makruk challenge and accept it from the lobby', async () => {
    await alice.goto(env.base + '/');
    await alice.selectOption('#create select[name=variant]', 'makruk');
    await alice.selectOption('#create select[name=color]', 'white');
    await alice.selectOption('#create select[name=tc]', 'live');
    await alice.fill('#create input[name=minutes]', '10');
    await alice.fill('#create input[name=increment]', '5');
    await alice.click('#create button[type=submit]');
    await alice.waitForURL(/\/game\//);
    gameUrl = alice.url();
    const id = gameUrl.split('/').pop();
    // Bob's lobby page (open before the challenge existed) shows it without a reload.
    await bob.click(`#lobby tr[data-id="${id}"] button.accept`, { timeout: 5000 });
    await bob.waitForURL(/\/game\//);
    await bob.waitForSelector('#status:has-text("Opponent")');
    await alice.waitForSelector('#status:has-text("Your move")');
    // A live game between two new players is rated: both show 1500?.
    const ratings = await alice.$$eval('.player .rating', els => els.map(e => e.textContent.trim()));
    expect(ratings.length === 2 && ratings.every(r => r === '1500?'), `ratings shown: ${ratings}`);
    await alice.screenshot({ path: join(artifacts, '02-game-start.png') });
  });

  await step('white moves by drag and drop; the move arrives at black', async () => {
    await drag(alice, 'e3', 'e4', 'white');
    await bob.waitForSelector('#moves .mv[data-ply="1"]:has-text("e4")', { timeout: 5000 });
    await bob.waitForSelector('#status:has-text("Your move")');
    await bob.screenshot({ path: join(artifacts, '03-black-sees-e4.png') });
  });

  await step('black moves by typing SAN; the move arrives at white', async () => {
    await bob.fill('#move-input', 'e5');
    await bob.press('#move-input', 'Enter');
    await alice.waitForSelector('#moves .mv[data-ply="2"]:has-text("e5")', { timeout: 5000 });
  });

  await step("white's clock ticks once both sides moved, black's stands", async () => {
    const w1 = await alice.textContent('#clock-white'), b1 = await alice.textContent('#clock-black');
    await alice.waitForTimeout(1500);
    const w2 = await alice.textContent('#clock-white'), b2 = await alice.textContent('#clock-black');
    expect(w1 !== w2 && b1 === b2, `clocks: white ${w1} -> ${w2}, black ${b1} -> ${b2}`);
    expect(await alice.locator('#clock-white.running').count() === 1, 'white clock marked running');
    await alice.screenshot({ path: join(artifacts, '03b-clocks.png') });
  });

  await step('an illegal typed move is refused with a message', async () => {
    await alice.fill('#move-input', 'Ke5');
    await alice.press('#move-input', 'Enter');
    await alice.waitForSelector('#game-error:not(:empty)');
  });

  await step('black moves by drag and drop from its own side; white by clicking', async () => {
    await alice.fill('#move-input', 'g3g4');
    await alice.press('#move-input', 'Enter');
    await bob.waitForSelector('#moves .mv[data-ply="3"]');
    await drag(bob, 'b6', 'b5', 'black');
    await alice.waitForSelector('#moves .mv[data-ply="4"]:has-text("b5")', { timeout: 5000 });
    const a = await squareCenter(alice, 'g1'), b = await squareCenter(alice, 'e2');
    await alice.mouse.click(a.x, a.y);
    await alice.mouse.click(b.x, b.y);
    await bob.waitForSelector('#moves .mv[data-ply="5"]:has-text("Ne2")', { timeout: 5000 });
    await alice.screenshot({ path: join(artifacts, '04-after-five-moves.png') });
  });

  await step('navigate the move list', async () => {
    await alice.click('#nav-start');
    const start = await alice.inputValue('#fen');
    expect(start.startsWith('rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w'), `start FEN shown: ${start}`);
    await alice.click('#nav-forward');
    expect((await alice.inputValue('#fen')).includes('4P3'), 'after e4');
    await alice.screenshot({ path: join(artifacts, '05-history-ply-1.png') });
    await alice.click('#flip');
    await alice.click('#nav-end');
    await alice.click('#flip');
    expect(await alice.locator('#moves .mv.current').textContent() === 'Ne2', 'at the end');
  });

  await step('download the PGN', async () => {
    const [download] = await Promise.all([alice.waitForEvent('download'), alice.click('#export-pgn')]);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.includes('[Variant "makruk"]') && text.includes('1. e4 e5 2. g4 b5 3. Ne2'), `PGN: ${text}`);
  });

  await step('draw offered by white, accepted by black', async () => {
    await alice.click('#draw-offer');
    await bob.waitForSelector('#draw-accept');
    await bob.click('#draw-accept');
    await alice.waitForSelector('#result:has-text("1/2-1/2")');
    // The rated draw between equals changes no rating: both bars say so.
    await alice.waitForSelector('.player .rating-diff');
    const diffs = await alice.$$eval('.player .rating-diff', els => els.map(e => e.textContent.trim()));
    expect(diffs.length === 2 && diffs.every(d => d === '\u00b10'), `rating changes shown: ${diffs}`);
    await alice.screenshot({ path: join(artifacts, '06-draw.png') });
  });

  await step('a rematch: offered after the draw, accepted, the colours swapped', async () => {
    await alice.click('#rematch');
    await alice.waitForSelector('#rematch-sent');
    await bob.waitForSelector('#rematch-accept');
    await bob.screenshot({ path: join(artifacts, '06b-rematch-offered.png') });
    await bob.click('#rematch-accept');
    await bob.waitForURL(url => url.toString() !== gameUrl);
    await alice.waitForURL(url => url.toString() !== gameUrl);
    expect(alice.url() === bob.url(), `both at the rematch: ${alice.url()} ${bob.url()}`);
    // Bob had Black: now he has White and moves first.
    await bob.waitForSelector('#status:has-text("Your move")');
    await bob.click('#abort');
    await alice.waitForSelector('#result:has-text("aborted")');
  });

  await step('a game is aborted before both sides moved', async () => {
    await startGame(alice, bob, 'makruk', 'white', 'live');
    await alice.waitForSelector('#abort');
    await alice.click('#abort');
    await alice.waitForSelector('#result:has-text("aborted")');
    await bob.waitForSelector('#result:has-text("aborted")');
    await bob.screenshot({ path: join(artifacts, '06b-aborted.png') });
  });

  await step("the Makruk count: start/stop buttons only for the side that may use them", async () => {
    const id = await startGame(alice, bob, 'makruk', 'white', 'none');
    await alice.waitForSelector('#status:has-text("Your move")');
    const tokens = readFileSync(new URL('../../crates/server/tests/data/makruk_board_count.txt', import.meta.url), 'utf8').split(/\s+/).filter(Boolean);
    const moves = tokens.slice(0, tokens.indexOf('count:black'));
    await replay(alice, bob, id, moves);
    await bob.waitForSelector(`#moves .mv[data-ply="${moves.length}"]`, { timeout: 10000 });
    // No bia left: either side may declare a count.
    await bob.waitForSelector('#count-start');
    await alice.waitForSelector('#count-start');
    await bob.click('#count-start');
    await alice.waitForSelector('#count:has-text("black counts")');
    await bob.waitForSelector('#count-stop');
    // Only the side counting may stop it; nobody may start another.
    await alice.waitForSelector('#count-start', { state: 'detached' });
    expect(await alice.locator('#count-stop').count() === 0, 'white may not stop the count of black');
    await bob.screenshot({ path: join(artifacts, '06c-count-started.png') });
    await bob.click('#count-stop');
    await alice.waitForSelector('#count', { state: 'hidden' });
    await bob.waitForSelector('#count-start');
  });

  await step("a conditional move in a correspondence game is played when the opponent's move matches", async () => {
    const id = await startGame(alice, bob, 'makruk', 'white', 'correspondence');
    await alice.waitForSelector('#status:has-text("Your move")');
    await replay(alice, bob, id, ['e3e4']);
    await alice.waitForSelector('#moves .mv[data-ply="1"]');
    await alice.click('#tab-conditional');
    await alice.fill('#conditional-lines', 'd5 exd5');
    await alice.click('#conditional-save');
    await alice.waitForSelector('#conditional-msg:has-text("saved 1 line")');
    await replay(alice, bob, id, ['d6d5'], 1);
    await bob.waitForSelector('#moves .mv[data-ply="3"]:has-text("exd5")', { timeout: 10000 });
    await bob.screenshot({ path: join(artifacts, '09b-conditional.png') });
  });

  await step('my games lists the game', async () => {
    await alice.goto(env.base + '/my-games');
    await alice.waitForSelector('#my-games');
    await alice.waitForSelector('#my-games .rating-diff');
    await alice.screenshot({ path: join(artifacts, '07-my-games.png') });
  });

  await step("a player's page: ratings, the rating plot, results and the archive searched", async () => {
    await alice.click('#username');
    await alice.waitForURL(/\/@\//);
    await alice.waitForSelector('#rating-plot circle');
    await alice.waitForSelector('#ratings tr.pool');
    const results = await alice.textContent('#results');
    expect(results.includes('1'), `results: ${results}`);
    // The archive: the rated draw; searching for wins finds none.
    await alice.waitForSelector('#archive td a[href^="/game/"]');
    await alice.screenshot({ path: join(artifacts, '07b-player-page.png'), fullPage: true });
    await alice.selectOption('#archive-search select[name=result]', 'win');
    await alice.click('#archive-search button[type=submit]');
    await alice.waitForSelector('#archive td:has-text("No games found")');
  });

  await step('my account: an API token made, shown once, then revoked', async () => {
    await alice.click('#nav-account');
    await alice.waitForSelector('#token-create');
    await alice.fill('#token-create input[name=description]', 'my makruk bot');
    await alice.click('#token-create button[type=submit]');
    await alice.waitForSelector('#new-token');
    const token = await alice.textContent('#new-token');
    expect(token.startsWith('tbp_'), `token shown: ${token}`);
    await alice.waitForSelector('#tokens tr:has-text("my makruk bot")');
    await alice.screenshot({ path: join(artifacts, '07e-account-token.png') });
    await alice.click('#tokens tr:has-text("my makruk bot") button.revoke');
    await alice.waitForSelector('#tokens tr:has-text("my makruk bot")', { state: 'detached' });
  });

  await step('the leaderboard of a pool, and the games being played now', async () => {
    await bob.goto(env.base + '/leaderboard?pool=makruk/rapid');
    await bob.waitForSelector('#leaderboard');
    await bob.waitForSelector('#leaderboard-empty:has-text("5")');
    await bob.screenshot({ path: join(artifacts, '07c-leaderboard.png') });
    await startGame(alice, bob, 'makruk', 'white', 'live');
    const playing = alice.url();
    await bob.goto(env.base + '/');
    await bob.waitForSelector(`#now-playing a[href="${new URL(playing).pathname}"]`);
    await bob.screenshot({ path: join(artifacts, '07d-now-playing.png') });
    await alice.goto(playing);
    await alice.click('#abort');
    await alice.waitForSelector('#result:has-text("aborted")');
  });

  await step('a Mak-hot game shows its board and takes a move', async () => {
    await startGame(bob, alice, 'makhos', 'black', 'correspondence');
    await alice.waitForSelector('#status:has-text("Your move")');
    await drag(alice, 'b2', 'c3', 'white');
    // A correspondence game: the move waits for its confirmation (the default setting).
    await alice.click('#confirm-move');
    await bob.waitForSelector('#moves .mv[data-ply="1"]:has-text("b2-c3")', { timeout: 5000 });
    await bob.screenshot({ path: join(artifacts, '08-makhos.png') });
  });

  await step('a Mak-hot multi-capture is entered by clicking each landing square', async () => {
    const id = await startGame(bob, alice, 'makhos', 'black', 'none');
    await alice.waitForSelector('#status:has-text("Your move")');
    // After these moves White's man on f4 captures to d6, then on to b8 or to f8.
    const moves = ('b2-c3 e7-f6 c1-b2 f6-e5 b2-a3 g7-f6 h2-g3 f8-e7 g1-h2 e5-d4 c3xe5xg7 h8xf6 a1-b2 e7-d6 d2-e3 d8-e7 ' +
      'g3-h4 a7-b6 h4-g5 f6xh4 f2-g3 h4xf2 e1xg3 b8-a7 a3-b4 b6-a5 b2-a3 a5xc3 g3-f4 d6-e5').split(' ');
    await replay(alice, bob, id, moves);
    await alice.waitForSelector(`#moves .mv[data-ply="${moves.length}"]`, { timeout: 10000 });
    await alice.waitForSelector('#status:has-text("Your move")');
    await clickSquare(alice, 'f4');
    await clickSquare(alice, 'd6');
    await alice.waitForSelector('#capture-path:has-text("f4xd6")');
    await alice.screenshot({ path: join(artifacts, '09-makhos-capture-step.png') });
    expect(await alice.locator('#moves .mv[data-ply="31"]').count() === 0, 'nothing sent after the first landing square');
    await clickSquare(alice, 'b8');
    await bob.waitForSelector('#moves .mv[data-ply="31"]:has-text("f4xd6xb8")', { timeout: 5000 });
    await alice.screenshot({ path: join(artifacts, '10-makhos-capture-done.png') });
  });

  await step('a guest plays the computer, which answers, then resigns', async () => {
    carol = await browser('carol');
    carol.on('dialog', d => d.accept());
    await carol.goto(env.base + '/');
    await carol.waitForSelector('#engine');
    await carol.selectOption('#engine select[name=variant]', 'makruk');
    await carol.selectOption('#engine select[name=color]', 'white');
    await carol.selectOption('#engine select[name=level]', '1');
    await carol.selectOption('#engine select[name=tc]', 'live');
    await carol.click('#engine button[type=submit]');
    await carol.waitForURL(/\/game\//);
    await carol.waitForSelector('#status:has-text("Your move")');
    await drag(carol, 'e3', 'e4', 'white');
    await carol.waitForSelector('#moves .mv[data-ply="2"]', { timeout: 10000 });
    await carol.waitForSelector('#status:has-text("Your move")');
    await carol.fill('#move-input', 'd3d4');
    await carol.press('#move-input', 'Enter');
    await carol.waitForSelector('#moves .mv[data-ply="4"]', { timeout: 10000 });
    await carol.screenshot({ path: join(artifacts, '11-computer.png') });
    await carol.click('#resign');
    await carol.waitForSelector('#result:has-text("0-1")');
    await carol.screenshot({ path: join(artifacts, '12-resigned.png') });
  });

  await step('the information tabs of a finished game: comment, material, rules, share GIF, analysis, explorer, tags', async () => {
    await carol.click('#tab-overview');
    await carol.fill('#comment-text', 'a quick loss');
    await carol.click('#comment-send');
    await carol.waitForSelector('#moves .note.comment:has-text("a quick loss")');
    await carol.click('#tab-material');
    await carol.waitForSelector('#balance');
    await carol.click('#tab-rules');
    await carol.waitForSelector('table.count-table');
    await carol.click('#tab-share');
    const [gif] = await Promise.all([carol.waitForEvent('download'), carol.click('#share-gif')]);
    expect(readFileSync(await gif.path()).subarray(0, 6).toString() === 'GIF89a', 'the GIF download is a GIF');
    await carol.click('#tab-analysis');
    await carol.waitForSelector('#analyse');
    // An update of the game redraws the tabs; a redraw that changes nothing keeps the
    // button under the pointer (a click in progress is not lost to its replacement).
    await carol.evaluate(() => { document.querySelector('#analyse').kept = true; window.dispatchEvent(new Event('notationchange')); });
    await carol.waitForTimeout(300);
    expect(await carol.evaluate(() => document.querySelector('#analyse')?.kept === true), 'a redraw that changes nothing keeps the analyse button');
    await carol.click('#analyse');
    await carol.waitForSelector('#eval-graph', { timeout: 60000 });
    await carol.waitForSelector('#analysis-here', { timeout: 60000 });
    await carol.waitForFunction(() => !document.querySelector('#analysis-progress'), null, { timeout: 60000 });
    await carol.screenshot({ path: join(artifacts, '13-analysis.png') });
    await carol.click('#nav-start');
    // The engine's line in the move list's notation (SAN, numbered), not in coordinates; the graph has its scale.
    // The panel follows the position shown once the page has redrawn: wait for the start position's line.
    await carol.waitForFunction(() => /1\. [a-hKMSNR]/.test(document.querySelector('#analysis-here')?.textContent ?? ''), null, { timeout: 10000 }).catch(() => {});
    const best = await carol.textContent('#analysis-here');
    expect(/1\. [a-hKMSNR]/.test(best) && !/[a-h][1-8][a-h][1-8]/.test(best), `the best line in SAN: ${best}`);
    expect(await carol.locator('#eval-graph text.eval-scale').count() >= 6, 'the graph has a scale');
    const accuracy = await carol.textContent('#accuracy');
    expect(/Accuracy: White \d+(\.\d)?%, Black \d+(\.\d)?%/.test(accuracy), `accuracy per player: ${accuracy}`);
    for (const li of await carol.locator('#judgements li').allTextContents()) {
      expect(/(\?\?|\?!|\?): /.test(li), `a judged move carries its symbol: ${li}`);
    }
    // The opening explorer at the start: the rated game Alice and Bob drew opened with e4.
    await carol.click('#tab-explorer');
    await carol.waitForSelector('#explorer-moves td[data-san="e4"]', { timeout: 10000 });
    await carol.click('#tab-tags');
    await carol.fill('#tags-input', 'study, quick');
    await carol.click('#tags-save');
    await carol.waitForSelector('text=saved');
    await carol.goto(env.base + '/my-games');
    await carol.selectOption('#tag-filter', 'study');
    expect(await carol.locator('#my-games tbody tr').count() === 1, 'one game tagged study');
    await carol.screenshot({ path: join(artifacts, '14-my-games-tag.png') });
  });

  await step('the analysis board: legal moves only, the address keeps the position', async () => {
    await carol.goto(env.base + '/analysis?variant=makruk');
    await carol.waitForSelector('#analysis-status:has-text("White to move")');
    await drag(carol, 'e3', 'e4', 'white');
    await carol.waitForSelector('#analysis-moves:has-text("e4")');
    expect(carol.url().includes('moves=e3e4'), `address: ${carol.url()}`);
    await carol.reload();
    await carol.waitForSelector('#analysis-status:has-text("Black to move")');
    expect((await carol.inputValue('#analysis-fen')).includes('4P3'), 'the reloaded board has e4');
    await carol.screenshot({ path: join(artifacts, '15-analysis-board.png') });
  });

  await step('the analysis board shows the endgame tables\' verdict and the count that decides it', async () => {
    if (!env.tables) { console.log('  (skipped: the server under test has no tables)'); return; }
    const at = fen => `${env.base}/analysis?variant=makruk&fen=${encodeURIComponent(fen)}`;
    await carol.goto(at('8/8/8/8/8/3k4/8/R2K4 w - 32 6 1'));
    await carol.waitForSelector('#analysis-tablebase:not(:empty)');
    const won = await carol.textContent('#analysis-tablebase');
    // The count as players say it (the bare khun's side has said 3 of 16), not in plies.
    expect(/Win: mate in \d+ within the count \(count 3 of 16\)/.test(won), `verdict: ${won}`);
    await carol.screenshot({ path: join(artifacts, '15b-analysis-tablebase.png') });
    // Mated in 28 plies without the count, but only 3 are left.
    await carol.goto(at('4k3/8/8/8/8/8/8/R3K3 b - 32 30 1'));
    await carol.waitForSelector('#analysis-tablebase:not(:empty)');
    const late = await carol.textContent('#analysis-tablebase');
    expect(late.includes('Draw: the count runs out 13 moves before mate'), `verdict: ${late}`);
    // Outside the tables: nothing shown.
    await carol.goto(env.base + '/analysis?variant=makruk');
    await carol.waitForSelector('#analysis-status:has-text("White to move")');
    expect(await carol.textContent('#analysis-tablebase') === '', 'no verdict at the start');
  });

  await step('a round-robin tournament: create, two players join, start, the game on its page, standings after a draw', async () => {
    const name = `Spring cup ${suffix}`;
    await alice.goto(env.base + '/tournaments');
    await alice.waitForSelector('#tournament-create');
    await alice.fill('#tournament-create input[name=name]', name);
    await alice.selectOption('#tournament-create select[name=kind]', 'round_robin');
    await alice.selectOption('#tournament-create select[name=variant]', 'makruk');
    await alice.screenshot({ path: join(artifacts, '16-tournament-form.png') });
    await alice.click('#tournament-create button[type=submit]');
    await alice.waitForURL(/\/tournaments\/[A-Za-z0-9]+$/);
    const url = alice.url();
    tournamentUrl = url;
    await alice.waitForSelector(`#tournament-name:has-text("${name}")`);
    await alice.click('#join');
    await alice.waitForSelector('#entrants li');
    await bob.goto(url);
    await bob.click('#join');
    await bob.waitForSelector('#entrants li:nth-child(2)');
    expect(await bob.locator('#start').count() === 0, 'only the creator may start');
    await alice.waitForSelector('#start', { timeout: 10000 }); // the page refreshes itself
    await alice.click('#start');
    await alice.waitForSelector('#pairings a.game-link');
    await alice.waitForSelector('#tournament-status:has-text("running")');
    await alice.screenshot({ path: join(artifacts, '17-tournament-running.png') });
    await bob.goto(env.base + '/my-games');
    await bob.waitForSelector(`#my-games a.tournament:has-text("${name}")`);
    await bob.goto(url);
    await bob.click('#pairings a.game-link');
    await bob.waitForSelector(`#tournament-link:has-text("${name}")`);
    await bob.click('#draw-offer');
    await alice.click('#pairings a.game-link');
    await alice.click('#draw-accept');
    await alice.waitForSelector('#result:has-text("1/2-1/2")');
    await alice.click('#tournament-link');
    await alice.waitForSelector('#tournament-status:has-text("finished")', { timeout: 10000 });
    const rows = await alice.locator('#standings tbody tr').allTextContents();
    expect(rows.length === 2 && rows.every(r => r.includes('½')), `standings: ${rows}`);
    await alice.waitForSelector('#pairings td.result:has-text("½–½")');
    await alice.screenshot({ path: join(artifacts, '18-tournament-standings.png') });
    await alice.goto(env.base + '/tournaments');
    await alice.waitForSelector(`#tournaments-finished a:has-text("${name}")`);
    await alice.screenshot({ path: join(artifacts, '19-tournaments.png') });
  });

  await step('an arena: live games, no abort button, arena points after a win', async () => {
    const name = `Blitz arena ${suffix}`;
    await alice.goto(env.base + '/tournaments');
    await alice.fill('#tournament-create input[name=name]', name);
    await alice.selectOption('#tournament-create select[name=kind]', 'arena');
    expect(await alice.locator('#tournament-create input[name=minutes]').isVisible(), 'a live clock for an arena');
    expect(!(await alice.locator('#tournament-create input[name=days]').isVisible()), 'no days for an arena');
    await alice.fill('#tournament-create input[name=duration_minutes]', '30');
    await alice.click('#tournament-create button[type=submit]');
    await alice.waitForURL(/\/tournaments\/[A-Za-z0-9]+$/);
    const url = alice.url();
    await alice.click('#join');
    await bob.goto(url);
    await bob.click('#join');
    await alice.waitForSelector('#start', { timeout: 10000 });
    await alice.click('#start');
    // A player on the arena page is taken to the game paired while it is open.
    await alice.waitForURL(/\/game\//);
    // Bob's arena page is still open from joining: its next refresh takes him to
    // the game too. Wait for that, so it cannot race the visit below.
    await bob.waitForURL(/\/game\//, { timeout: 10000 });
    await bob.goto(url);
    await bob.waitForSelector('#tournament-status:has-text("ends in")');
    await bob.click('#pairings a.game-link');
    await bob.waitForSelector(`#tournament-link:has-text("${name}")`);
    await bob.waitForSelector('#resign');
    expect(await bob.locator('#abort').count() === 0, 'no abort button in a tournament game');
    bob.once('dialog', d => d.accept());
    await bob.click('#resign');
    await bob.waitForSelector('#result');
    // Both players are back in the pool and paired again at once; wait for that
    // pairing first, so the arena page opens on it instead of following it to the game.
    const tid = url.split('/').pop();
    await alice.waitForFunction(async tid => (await (await fetch(`/api/tournaments/${tid}`)).json()).pairings.length >= 2, tid, { timeout: 10000, polling: 500 });
    await alice.goto(url);
    await alice.waitForSelector('#standings th:has-text("Scoresheet")');
    const top = await alice.locator('#standings tbody tr').first().textContent();
    expect(top.includes(`alice_${suffix}`) && top.includes('2'), `the winner leads with 2 points: ${top}`);
    await alice.waitForSelector('#pairings .round[data-round="2"]', { timeout: 10000 });
    await alice.screenshot({ path: join(artifacts, '20-arena.png') });
  });

  await thaiSteps();
  await gamePageSteps();
  await leaveSteps();
  // Its own server (the guest budget of one address): needs THAIBOARD_BIN.
  if (process.env.THAIBOARD_BIN) await firstMinutesSteps();
  await namesSteps();
  await playSteps();
  await explorerSteps();
  await socialSteps();
  await siteSteps(alice, await premoveCountSteps(alice, bob));
  await accountSecuritySteps();
  await puzzleSteps();
  await editorSteps();
  await arenaSteps();
  await resultsSteps();
  await practiceSteps();
}

/** Texts of the coordinates along one edge of the board (`bottom` files, `side` ranks), in screen order (left to right, bottom to top). */
async function coordsOnScreen(page, edge) {
  const items = await page.locator(`#board coords.${edge} coord`).evaluateAll(els =>
    els.map(e => { const r = e.getBoundingClientRect(); return { text: e.textContent, x: r.x, y: r.y }; }));
  return items.sort((a, b) => (edge === 'bottom' ? a.x - b.x : b.y - a.y)).map(i => i.text).join('');
}

/** The interface in Thai and the Thai notation option, in a browser of its own (a fresh guest). */
/** The address of the tournament played in run(), shown again in Thai. */
let tournamentUrl;

async function thaiSteps() {
  const dao = await browser('dao', { locale: 'en-US' });
  dao.on('dialog', d => d.accept());

  await step('a browser that prefers Thai gets the Thai interface on its first visit', async () => {
    const niran = await browser('niran', { locale: 'th-TH' });
    await niran.goto(env.base + '/');
    await niran.waitForSelector('#engine button[type=submit]:has-text("เล่นกับคอมพิวเตอร์")');
    expect(await niran.getAttribute('html', 'lang') === 'th', '<html lang="th">');
    expect(await niran.inputValue('#lang') === 'th', 'the switch shows ไทย');
    await niran.context().close();
  });

  await step('the language switch turns the lobby into Thai, remembered after a reload', async () => {
    await dao.goto(env.base + '/');
    await dao.waitForSelector('#engine');
    expect(await dao.getAttribute('html', 'lang') === 'en', 'English by default (the browser speaks English)');
    await Promise.all([dao.waitForEvent('load'), dao.selectOption('#lang', 'th')]);
    await dao.waitForSelector('#engine button[type=submit]:has-text("เล่นกับคอมพิวเตอร์")');
    expect(await dao.getAttribute('html', 'lang') === 'th', '<html lang="th">');
    const heads = (await dao.locator('main h2').allTextContents()).join('|');
    expect(heads.includes('ตั้งเกมเอง') && heads.includes('คำท้าที่รอคู่เล่น'), `headings: ${heads}`);
    expect(await dao.textContent('#login') === 'เข้าสู่ระบบ' && await dao.textContent('#register') === 'สมัครสมาชิก', 'top bar buttons');
    expect(await dao.textContent('header a[href="/my-games"]') === 'เกมของฉัน', 'top bar link');
    const variants = await dao.locator('#engine select[name=variant] option').allTextContents();
    expect(variants.join(',') === 'หมากรุกไทย,อุกชาตรัง (หมากรุกเขมร),หมากฮอส', `game names: ${variants}`);
    await dao.selectOption('#engine select[name=tc]', 'live');
    const clockFields = await dao.locator('#engine span.row').first().textContent();
    expect(clockFields === 'นาที+ วินาที', `the clock fields: ${clockFields}`);
    await dao.screenshot({ path: join(artifacts, 'thai-lobby.png') });
    await dao.reload();
    await dao.waitForSelector('#engine button[type=submit]:has-text("เล่นกับคอมพิวเตอร์")');
    expect(await dao.inputValue('#lang') === 'th', 'the switch shows ไทย');
  });

  await step('a game page in Thai; Thai notation: coordinates ก–ญ and ๑–๘, moves in Thai, moves typed in Thai', async () => {
    await dao.selectOption('#engine select[name=variant]', 'makruk');
    await dao.selectOption('#engine select[name=color]', 'white');
    await dao.selectOption('#engine select[name=level]', '1');
    await dao.selectOption('#engine select[name=tc]', 'none');
    await dao.click('#engine button[type=submit]');
    await dao.waitForURL(/\/game\//);
    await dao.waitForSelector('#status:has-text("ถึงตาคุณเดิน")');
    expect(await dao.textContent('#tab-rules') === 'กติกา' && await dao.textContent('#tab-overview') === 'ภาพรวม', 'tab labels');
    expect(await dao.textContent('#abort') === 'ยกเลิกเกม', 'abort button');
    expect(await dao.textContent('#flip') === 'กลับกระดาน', 'flip button');
    await dao.click('#tab-rules');
    await dao.waitForSelector('#tab-panel:has-text("นับศักดิ์กระดาน")');
    expect(await coordsOnScreen(dao, 'bottom') === 'abcdefgh', 'Latin files before the option');
    await dao.selectOption('#notation', 'thai-lan');
    await dao.waitForFunction(() => document.querySelector('#board coords.bottom coord')?.textContent === 'ก');
    expect(await coordsOnScreen(dao, 'bottom') === 'กขคงจฉชญ', `files: ${await coordsOnScreen(dao, 'bottom')}`);
    expect(await coordsOnScreen(dao, 'side') === '๑๒๓๔๕๖๗๘', `ranks: ${await coordsOnScreen(dao, 'side')}`);
    expect((await dao.getAttribute('#move-input', 'placeholder')).includes('บ จ๓-จ๔'), 'the move box shows a Thai example');
    // The earlier form is still read; the server shows Fairy-Stockfish's long Thai form.
    await dao.fill('#move-input', 'บจ๔');
    await dao.press('#move-input', 'Enter');
    await dao.waitForSelector('#moves .mv[data-ply="1"][data-san="e4"]:has-text("บ จ๓-จ๔")', { timeout: 10000 });
    await dao.waitForSelector('#moves .mv[data-ply="2"]', { timeout: 15000 });
    const reply = await dao.textContent('#moves .mv[data-ply="2"]');
    expect(/^[\u0E00-\u0E7F]+ [\u0E00-\u0E7F]+[-x][\u0E00-\u0E7F]+(=M)?[+#]?$/.test(reply), `the computer's reply in Thai: ${reply}`);
    await dao.waitForSelector('#status:has-text("ถึงตาคุณเดิน")');
    await dao.fill('#move-input', 'ม้า ง๒');
    await dao.press('#move-input', 'Enter');
    await dao.waitForSelector('#moves .mv[data-ply="3"][data-san="Nd2"]:has-text("ม ข๑-ง๒")', { timeout: 10000 });
    await dao.waitForSelector('#moves .mv[data-ply="4"]', { timeout: 15000 });
    await dao.click('#tab-overview');
    await dao.waitForSelector('#overview td:has-text("ม ข๑-ง๒")');
    // The short form on request.
    await dao.selectOption('#notation', 'thai-san');
    await dao.waitForSelector('#moves .mv[data-ply="3"]:text-is("ม-ง๒")');
    await dao.selectOption('#notation', 'thai-lan');
    await dao.screenshot({ path: join(artifacts, 'thai-game.png') });
  });

  await step('Thai notation: a text that is no move is refused, naming the character; the coordinates follow a flipped board', async () => {
    await dao.fill('#move-input', 'สวัสดี');
    await dao.press('#move-input', 'Enter');
    await dao.waitForSelector('#game-error:has-text("at character 1")');
    await dao.click('#flip');
    await dao.waitForSelector('#board.orientation-black');
    expect(await coordsOnScreen(dao, 'bottom') === 'ญชฉจงคขก', `flipped files: ${await coordsOnScreen(dao, 'bottom')}`);
    expect(await coordsOnScreen(dao, 'side') === '๘๗๖๕๔๓๒๑', `flipped ranks: ${await coordsOnScreen(dao, 'side')}`);
    await dao.screenshot({ path: join(artifacts, 'thai-game-flipped.png') });
    await dao.click('#flip');
    await dao.waitForSelector('#board.orientation-white');
    expect(await coordsOnScreen(dao, 'bottom') === 'กขคงจฉชญ', 'files after flipping back');
  });

  await step('Thai notation off again: Latin coordinates and SAN, without a reload', async () => {
    await dao.selectOption('#notation', 'standard');
    await dao.waitForSelector('#moves .mv[data-ply="1"]:text-is("e4")');
    expect(await coordsOnScreen(dao, 'bottom') === 'abcdefgh', 'Latin files');
    expect(await dao.textContent('#moves .mv[data-ply="3"]') === 'Nd2', 'SAN moves');
    await dao.selectOption('#notation', 'thai-lan');
    await dao.waitForSelector('#moves .mv[data-ply="1"]:text-is("บ จ๓-จ๔")');
  });

  await step('the result and its reason in Thai; my games in Thai', async () => {
    await dao.click('#resign');
    await dao.waitForSelector('#result:text-is("0-1 — ยอมแพ้")');
    await dao.click('#tab-material');
    await dao.waitForSelector('#captured-by-white:has-text("ฝ่ายขาวกินได้")');
    await dao.click('#tab-analysis');
    await dao.click('#analyse:text-is("วิเคราะห์ด้วยเอนจิน")');
    await dao.waitForFunction(() => !document.querySelector('#analysis-progress'), null, { timeout: 60000 });
    await dao.click('#nav-start');
    await dao.waitForSelector('#analysis-here:has-text("ค่าประเมิน")', { timeout: 60000 });
    const line = await dao.textContent('#analysis-here');
    expect(/ทางที่ดีที่สุด: (\d+[.…] )?[\u0E00-\u0E7F]/.test(line) && !/[a-h][1-8]/.test(line), `the best line in Thai squares: ${line}`);
    await dao.screenshot({ path: join(artifacts, 'thai-analysis.png') });
    await dao.goto(env.base + '/my-games');
    await dao.waitForSelector('main h2:text-is("เกมของฉัน")');
    const head = await dao.locator('#my-games th').allTextContents();
    expect(head.join(',') === 'ผู้เล่น,เกม,เวลา,สถานะ,ตาเดิน,ป้ายกำกับ', `my games columns: ${head}`);
    const row = await dao.locator('#my-games tbody tr').first().textContent();
    expect(row.includes('หมากรุกไทย') && row.includes('ไม่จำกัดเวลา') && row.includes('0-1 ยอมแพ้'), `my games row: ${row}`);
    await dao.screenshot({ path: join(artifacts, 'thai-my-games.png') });
  });

  await step('a Mak-hot move typed in Thai squares is played; the reply is shown in Thai', async () => {
    await dao.goto(env.base + '/');
    await dao.selectOption('#engine select[name=variant]', 'makhos');
    await dao.selectOption('#engine select[name=color]', 'white');
    await dao.selectOption('#engine select[name=level]', '1');
    await dao.selectOption('#engine select[name=tc]', 'none');
    await dao.click('#engine button[type=submit]');
    await dao.waitForURL(/\/game\//);
    await dao.waitForSelector('#status:has-text("ถึงตาคุณเดิน")');
    expect((await dao.getAttribute('#move-input', 'placeholder')).includes('ค๓-ง๔'), 'a Mak-hot example in Thai');
    await dao.fill('#move-input', 'ข๒-ค๓');
    await dao.press('#move-input', 'Enter');
    await dao.waitForSelector('#moves .mv[data-ply="1"][data-san="b2-c3"]:text-is("ข๒-ค๓")', { timeout: 10000 });
    await dao.waitForSelector('#moves .mv[data-ply="2"]', { timeout: 15000 });
    const reply = await dao.textContent('#moves .mv[data-ply="2"]');
    expect(/^[ก-ญ][๑-๘]([-x][ก-ญ][๑-๘])+$/.test(reply), `the reply in Thai squares: ${reply}`);
  });

  await step('the Mak-hot analysis board in Thai notation', async () => {
    await dao.goto(env.base + '/analysis?variant=makhos');
    await dao.waitForSelector('#analysis-status:has-text("ฝ่ายขาวเดิน")');
    expect(await coordsOnScreen(dao, 'bottom') === 'กขคงจฉชญ', 'Thai files on the analysis board');
    await drag(dao, 'b2', 'c3', 'white');
    await dao.waitForSelector('#analysis-moves:has-text("ข๒-ค๓")');
    await dao.waitForSelector('#analysis-status:has-text("ฝ่ายดำเดิน")');
    await dao.screenshot({ path: join(artifacts, 'thai-makhos-analysis.png') });
  });

  await step('a tournament page in Thai: standings and pairings', async () => {
    await dao.goto(tournamentUrl);
    await dao.waitForSelector('#tournament-status:has-text("จบแล้ว")');
    await dao.waitForSelector('#standings th:has-text("คะแนน")');
    await dao.waitForSelector('#pairings h3:has-text("รอบที่ 1")');
    await dao.waitForSelector('#nav-tournaments:has-text("ทัวร์นาเมนต์")');
    await dao.screenshot({ path: join(artifacts, 'thai-tournament.png') });
  });
}

try {
  await run();
} catch {
  // reported by step()
} finally {
  for (const f of cleanup.reverse()) { try { await f(); } catch {} }
  if (env.server) env.server.kill('SIGKILL');
}
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed || !tally.passed ? 1 : 0);
