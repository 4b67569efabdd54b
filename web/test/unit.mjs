// Unit checks of the web board's pure modules, in Node (no browser):
// - i18n.ts: the English and Thai tables have the same keys and the same
//   {placeholders}, no empty text, and t() fills parameters;
// - notation.ts: choosing the server's Thai forms, Thai squares, splitting
//   a typed line of moves (Thai notation itself comes from the rules crates);
// - game/state.ts: the game page's positions, view, seat and update checks;
//   game/clocks.ts: the clock format; labels.ts: ratings and their changes;
// - boardfen.ts: Mak-hot position texts to chessground's board FEN, Makruk
//   and Ouk FENs (promoted marks too) passed through;
// - material.ts: pieces counted, captured and weighed in both games;
// - game/premove.ts: the squares a piece may be premoved to.
//
//   node test/unit.mjs      (from web/, after npm ci; run by .ci/run)
import { build } from 'esbuild';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'thaiboard-unit-'));
let passed = 0, failed = 0;
function test(name, fn) {
  try { fn(); passed++; console.log(`ok - ${name}`); } catch (e) { failed++; console.log(`FAILED - ${name}: ${e.stack || e}`); }
}

try {
  await build({
    entryPoints: {
      i18n: join(here, '../src/i18n.ts'), notation: join(here, '../src/notation.ts'),
      state: join(here, '../src/game/state.ts'), clocks: join(here, '../src/game/clocks.ts'),
      labels: join(here, '../src/labels.ts'), tablebase: join(here, '../src/tablebase.ts'),
      boardfen: join(here, '../src/boardfen.ts'), material: join(here, '../src/material.ts'),
      premove: join(here, '../src/game/premove.ts'), count: join(here, '../src/count.ts'),
    },
    // One copy of each shared module (the language chosen in i18n holds for all).
    splitting: true, bundle: true, format: 'esm', platform: 'node', outdir: out, logLevel: 'warning',
  });
  const i18n = await import(join(out, 'i18n.js'));
  const n = await import(join(out, 'notation.js'));
  const { GameState, runningBetween } = await import(join(out, 'state.js'));
  const { fmtClock } = await import(join(out, 'clocks.js'));
  const labels = await import(join(out, 'labels.js'));
  const tb = await import(join(out, 'tablebase.js'));
  const bf = await import(join(out, 'boardfen.js'));
  const mat = await import(join(out, 'material.js'));
  const { premoveDests } = await import(join(out, 'premove.js'));
  const countText = await import(join(out, 'count.js'));

  // ------------------------------------------------------------ tablebase
  test('the tables\' verdict names the result and the count that decides it', () => {
    i18n.setLang('en');
    // White mates in 21 plies with the 16-move pieces'-honour count running.
    // (the server says the count as players say it: Black, the bare khun, said 3 of 16).
    const count = { spoken: 3, spoken_limit: 16, ply: 5, limit: 32 };
    assert.equal(tb.tablebaseText('makruk', '8/8/8/8/8/3k4/8/R2K4 w - 32 5 1', { category: 'win', dtm: 21, plies_left: 27, count }),
      'Win: mate in 11 within the count (count 3 of 16)');
    assert.equal(tb.tablebaseText('makruk', '8/8/8/8/8/3k4/8/R2K4 b - 32 6 1', { category: 'loss', dtm: -20, plies_left: 26, count: { ...count, spoken: 4, ply: 6 } }),
      'Loss: mated in 10 within the count (count 4 of 16)');
    i18n.setLang('th');
    assert.equal(tb.tablebaseText('makruk', '8/8/8/8/8/3k4/8/R2K4 w - 32 5 1', { category: 'win', dtm: 21, plies_left: 27, count }),
      'ชนะ: รุกจนใน 11 ตา ภายในการนับ (นับ 3 จาก 16)');
    i18n.setLang('en');
    // Mated in 28 plies without the count, but 22 are left: 3 moves short.
    assert.equal(tb.tablebaseText('makruk', '4k3/8/8/8/8/8/8/R3K3 b - 32 11 1', { category: 'draw', dtm: -28, plies_left: 22 }),
      'Draw: the count runs out 3 moves before mate');
    assert.equal(tb.tablebaseText('makruk', '4k3/8/8/8/8/8/8/N3K3 w - 128 6 1', { category: 'draw', dtm: null, plies_left: 123 }),
      'Draw with best play');
    assert.equal(tb.tablebaseText('makruk', '4k3/8/8/4p3/8/8/8/R3K3 w - - 0 1', { category: 'win', dtc: 7, plies_left: null }),
      'Win: mate, or a capture or promotion into a won count, in 4');
    assert.equal(tb.tablebaseText('makhos', 'W:WKb8,Kd8:BKh2', { category: 'win', dtz: 7 }),
      'Win: the next capture or man move within 7 plies (32-ply rule)');
    assert.equal(tb.tablebaseText('makhos', 'W:Wb6,Kc7:Bb8', { category: 'win', dtz: 1, dtw: 11 }),
      'Win in 11 plies; the next capture or man move within 1 (32-ply rule)');
    assert.equal(tb.tablebaseText('makhos', 'B:Wb6,Kd6:Bb8', { category: 'loss', dtz: -1, dtw: -2 }),
      'Loss in 2 plies; the other side captures or moves a man within 1 (32-ply rule)');
    assert.equal(tb.countMoves('4k3/8/8/8/8/8/8/R3K3 b - 32 30 1'), 16);
    assert.equal(tb.countMoves('4k3/8/8/8/8/8/8/R3K3 b - - 0 1'), null);
  });

  // ------------------------------------------------------------ i18n
  const { en, th } = i18n.TABLES;
  test('the English and Thai tables have the same keys', () => {
    const a = Object.keys(en).sort(), b = Object.keys(th).sort();
    assert.deepEqual(a.filter(k => !(k in th)), [], 'keys missing from the Thai table');
    assert.deepEqual(b.filter(k => !(k in en)), [], 'keys missing from the English table');
    assert.ok(a.length > 150, `only ${a.length} keys`);
  });
  test('every text has the same {placeholders} in both languages, and none is empty', () => {
    const holes = s => [...s.matchAll(/\{(\w+)\}/g)].map(m => m[1]).sort().join(',');
    for (const k of Object.keys(en)) {
      assert.equal(holes(th[k]), holes(en[k]), `placeholders of ${k}`);
      assert.ok(en[k].trim() && th[k].trim(), `empty text for ${k}`);
    }
  });
  test('the Thai table is in Thai', () => {
    const latinOnly = Object.entries(th).filter(([, v]) => !/[\u0E00-\u0E7F]/.test(v)).map(([k]) => k);
    // Only the FEN labels may stay without Thai letters.
    assert.deepEqual(latinOnly, ['tabs.fen', 'analysis.fen']);
  });
  test('t() follows the language and fills parameters', () => {
    i18n.setLang('en');
    assert.equal(i18n.t('top.playingAs', { name: 'somchai' }), 'Playing as somchai');
    assert.equal(i18n.t('game.countLine', { who: 'x', kind: 'y', spoken: 'count 3 of 64' }), 'x (y): count 3 of 64');
    const c = { spoken: 6, spoken_limit: 8, ply: 10, limit: 16 };
    assert.equal(countText.spokenText(c), 'count 6 of 8');
    assert.equal(countText.pliesText(c), "10 of 16 plies (both sides' moves)");
    i18n.setLang('th');
    assert.equal(i18n.lang(), 'th');
    assert.equal(i18n.t('top.playingAs', { name: 'somchai' }), 'เล่นในชื่อ somchai');
    assert.equal(i18n.t('variant.makhos'), 'หมากฮอส');
    assert.equal(i18n.t('game.boardHonour'), 'นับศักดิ์กระดาน');
    assert.equal(countText.spokenText(c), 'นับ 6 จาก 8');
    assert.equal(i18n.tMaybe('reason.checkmate', '?'), 'รุกจน');
    assert.equal(i18n.tMaybe('reason.unheard_of', 'unheard_of'), 'unheard_of');
    i18n.setLang('en');
  });

  // ------------------------------------------------------------ notation
  // Thai notation itself is written and read by the rules crates (tested
  // there against Fairy-Stockfish); the page only chooses a form.
  test('squares in Thai: files ก–ญ, ranks ๑–๘', () => {
    assert.equal(n.squareToThai('a1'), 'ก๑');
    assert.equal(n.squareToThai('f3'), 'ฉ๓');
    assert.equal(n.squareToThai('h8'), 'ญ๘');
    assert.equal(n.squareToThai('i9'), 'i9');
  });
  test('engine moves (analysis lines) with Thai squares', () => {
    assert.equal(n.engineMoveToThai('e3e4'), 'จ๓จ๔');
    assert.equal(n.engineMoveToThai('c5c6m'), 'ค๕ค๖ม็');
    assert.equal(n.engineMoveToThai('c3e5c7'), 'ค๓จ๕ค๗');
  });
  test("a move is shown in the server's form the reader chose; the long Thai form by default", () => {
    const e4 = { san: 'e4', thai: { short: 'จ๔', long: 'บ จ๓-จ๔' } };
    assert.equal(n.showMove(e4, 'standard'), 'e4');
    assert.equal(n.showMove(e4, 'thai-lan'), 'บ จ๓-จ๔');
    assert.equal(n.showMove(e4, 'thai-san'), 'จ๔');
    assert.equal(n.showMove({ san: 'white starts counting' }, 'thai-lan'), 'white starts counting', 'no Thai form: as sent');
    assert.equal(n.showMove({ san: 'e4', thai: null }, 'thai-san'), 'e4');
    assert.deepEqual(n.MOVE_NOTATIONS, ['standard', 'thai-lan', 'thai-san']);
    assert.equal(n.moveNotation(), 'standard', 'nothing stored (no localStorage in Node)');
  });
  test('moves typed in a line: the long Thai form keeps its piece letter', () => {
    assert.deepEqual(n.splitMoves('บ จ๓-จ๔ บ จ๖-จ๕ ม็ จ๑-ง๒'), ['บ จ๓-จ๔', 'บ จ๖-จ๕', 'ม็ จ๑-ง๒']);
    assert.deepEqual(n.splitMoves('จ๔ จ๕  Nd2 e6e5'), ['จ๔', 'จ๕', 'Nd2', 'e6e5']);
    assert.deepEqual(n.splitMoves('บ จ๓-จ๔, ง๕'), ['บ จ๓-จ๔', 'ง๕']);
    assert.deepEqual(n.splitMoves('  '), []);
    assert.ok(n.hasThai('ม-ง๗') && !n.hasThai('Nd2'));
  });

  // ------------------------------------------------------------ game page state
  const alice = { id: 'u1', username: 'alice', guest: false }, bob = { id: 'u2', username: 'bob', guest: false };
  const carol = { id: 'u3', username: 'carol', guest: true };
  const move = (seq, uci, san, fen) => ({ seq, kind: 'move', uci, san, fen, white_ms: 0, black_ms: 0, at: 0 });
  const game = (over = {}) => ({
    id: 'g1', variant: 'makruk', rules: 'default', status: 'ongoing', creator: alice, creator_color: 'black', white: bob, black: alice,
    time_control: { kind: 'live', initial_ms: 60000, increment_ms: 0, max_ms: 0 }, clock: { white_ms: 50000, black_ms: 40000, running: 'white', server_now: 0, pauses: [] },
    ply: 0, turn: 'white', fen: 'start', legal: [], result: null, reason: null, draw_offer: null, count: null,
    can_start_count: [], can_stop_count: [], start_fen: 'start', actions: [], version: 1, ...over,
  });
  test('game state: positions from the actions, the view, my colour and turn', () => {
    const acts = [move(1, 'e3e4', 'e4', 'f1'), { ...move(2, 'white', 'offer', 'f1b'), kind: 'draw_offer' }, move(3, 'd6d5', 'd5', 'f2')];
    const s = new GameState('g1', game({ ply: 2, turn: 'white', actions: acts }), alice);
    assert.equal(s.myColor, 'black');
    assert.equal(s.orientation, 'black');
    assert.equal(s.myTurn(), false);
    assert.deepEqual(s.plies().map(p => [p.fen, p.san, p.last.join(''), p.turn]),
      [['start', '', '', 'white'], ['f1b', 'e4', 'e3e4', 'black'], ['f2', 'd5', 'd6d5', 'white']]);
    assert.equal(s.shownIndex(), 2);
    assert.ok(s.atLatest());
    s.view = 1;
    assert.equal(s.shownIndex(), 1);
    assert.ok(!s.atLatest());
    const spectator = new GameState('g1', game(), carol);
    assert.equal(spectator.myColor, null);
    assert.equal(spectator.orientation, 'white');
    assert.equal(new GameState('g1', game({ white: null, black: null }), alice).orientation, 'black', "the creator's chosen colour");
  });
  test('game state: updates add new actions once, and a missed one asks for the whole game', () => {
    const s = new GameState('g1', game({ status: 'open', white: null, black: alice, creator: alice, creator_color: 'black' }), bob);
    assert.equal(s.orientation, 'white');
    const a1 = move(1, 'e3e4', 'e4', 'f1');
    // Bob takes the white seat: he sees the board from White's side.
    assert.ok(s.update(game({ ply: 1, turn: 'black' }), a1, false));
    assert.equal(s.myColor, 'white');
    assert.equal(s.orientation, 'white');
    assert.ok(s.update(game({ ply: 1, turn: 'black' }), a1, false), 'the same action twice');
    assert.equal(s.actions.length, 1);
    assert.equal(s.game.actions, s.actions);
    assert.ok(!s.update(game({ ply: 3, turn: 'black' }), move(3, 'e4e5', 'e5', 'f3'), false), 'move 2 was missed');
    assert.ok(s.update(game({ ply: 2, actions: [a1, move(2, 'd6d5', 'd5', 'f2')] }), null, true));
    assert.equal(s.plies().length, 3);
    assert.equal(s.timeLeft('black'), 40000, 'a clock that does not run');
    assert.ok(s.timeLeft('white') <= 50000);
  });
  test('a correspondence clock does not run inside a pause for leave', () => {
    const pauses = [{ from: 10, until: 20 }, { from: 30, until: 40 }];
    assert.equal(runningBetween(pauses, 0, 50), 30);
    assert.equal(runningBetween(pauses, 15, 35), 10);
    assert.equal(runningBetween(pauses, 12, 18), 0);
    assert.equal(runningBetween([], 5, 9), 4);
  });
  test('clock texts', () => {
    assert.equal(fmtClock(65000, 'live'), '1:05');
    assert.equal(fmtClock(3723000, 'live'), '1:02:03');
    assert.equal(fmtClock(9450, 'live'), '0:09.4');
    assert.equal(fmtClock(-5, 'live'), '0:00.0');
  });
  test('ratings: provisional ones end with ?, changes carry their sign', () => {
    assert.equal(labels.ratingText({ rating: 1500, provisional: true }), '1500?');
    assert.equal(labels.ratingText({ rating: 1623, provisional: false }), '1623');
    assert.equal(labels.ratingText(null), '');
    assert.equal(labels.diffText(12), '+12');
    assert.equal(labels.diffText(-8), '\u22128');
    assert.equal(labels.diffText(0), '\u00b10');
    assert.equal(labels.nameWithRating('somchai', { rating: 1500, provisional: true }), 'somchai (1500?)');
    assert.equal(labels.nameWithRating('guest', null), 'guest');
  });

  // ------------------------------------------------------------ board FEN
  const MAKHOS_START = 'W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb8,d8,f8,h8,a7,c7,e7,g7';
  const MAKRUK_START = 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1';
  test('Mak-hot position texts to a board FEN: men as p, kings as k, White in capitals', () => {
    assert.equal(bf.makhosBoardFen(MAKHOS_START), '1p1p1p1p/p1p1p1p1/8/8/8/8/1P1P1P1P/P1P1P1P1');
    assert.equal(bf.makhosBoardFen('W:WKb8,Kd8:BKh2'), '1K1K4/8/8/8/8/8/7k/8');
    assert.equal(bf.makhosBoardFen('B:Wb6,Kc7:Bb8,Ka3'), '1p6/2K5/1P6/8/8/k7/8/8', 'the side to move is not on the board');
    assert.equal(bf.makhosBoardFen('W:Bb8:Wa1'), '1p6/8/8/8/8/8/8/P7', 'either side first');
  });
  test('Mak-hot board FEN: empty squares run together, at either end and between pieces', () => {
    assert.equal(bf.makhosBoardFen('W:Wa1,b1,h1:Bc8,d8,e8,f8,g8,h8,a8,b8'), 'pppppppp/8/8/8/8/8/8/PP5P');
    assert.equal(bf.makhosBoardFen('W:Wd4:Be4'), '8/8/8/8/3Pp3/8/8/8');
  });
  test('Mak-hot board FEN: spaces and empty lists are allowed, squares off the board left out', () => {
    assert.equal(bf.makhosBoardFen('W:W a1 , ,c3:B'), '8/8/8/8/8/2P5/8/P7');
    assert.equal(bf.makhosBoardFen('W:W:B'), '8/8/8/8/8/8/8/8');
    assert.equal(bf.makhosBoardFen(''), '8/8/8/8/8/8/8/8');
    assert.equal(bf.makhosBoardFen('garbage'), '8/8/8/8/8/8/8/8', 'no lists at all');
    assert.equal(bf.makhosBoardFen('W:Wa9,i1,a0,Kz5,A1,K:Bh8'), '7p/8/8/8/8/8/8/8');
    assert.equal(bf.makhosBoardFen('W:Wa1x,b2.5,c:Bd6'), '8/8/3p4/8/8/8/8/8', 'a rank that is not a whole number');
  });
  test('boardFen: Mak-hot texts are converted, Makruk and Ouk FENs (promoted marks too) drawn as they are', () => {
    assert.equal(bf.boardFen('makhos', MAKHOS_START), bf.makhosBoardFen(MAKHOS_START));
    assert.equal(bf.boardFen('makruk', MAKRUK_START), MAKRUK_START);
    const promoted = '8/4M~3/8/3k4/8/8/8/R2K4 b - 32 6 1';
    assert.equal(bf.boardFen('makruk', promoted), promoted);
    const ouk = 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde 0 0 1';
    assert.equal(bf.boardFen('cambodian', ouk), ouk);
  });

  // ------------------------------------------------------------ material
  test('Makruk counts: every role of the start position, chess letters as Thai roles, a promoted met as a bia', () => {
    const start = { k: 1, m: 1, s: 2, n: 2, r: 2, p: 8 };
    assert.deepEqual(mat.makrukCounts(MAKRUK_START), { white: start, black: start });
    assert.deepEqual(mat.makrukCounts('4k3/8/8/3q~4/8/8/2B5/Q3K3 w - - 0 1'),
      { white: { k: 1, m: 1, s: 1, n: 0, r: 0, p: 0 }, black: { k: 1, m: 0, s: 0, n: 0, r: 0, p: 1 } },
      'q and b are met and khon; q~ was a bia');
    assert.deepEqual(mat.makrukCounts('4k3/8/8/3M~m~3/8/8/8/4K3 b - - 0 1'),
      { white: { k: 1, m: 0, s: 0, n: 0, r: 0, p: 1 }, black: { k: 1, m: 0, s: 0, n: 0, r: 0, p: 1 } });
    // Only the board part is read; letters of no role are left out.
    assert.deepEqual(mat.makrukCounts('4k3/8/8/8/8/8/8/4K2X b KQkq - 0 1'),
      { white: { k: 1, m: 0, s: 0, n: 0, r: 0, p: 0 }, black: { k: 1, m: 0, s: 0, n: 0, r: 0, p: 0 } });
    assert.deepEqual(mat.makrukCounts(''), { white: { k: 0, m: 0, s: 0, n: 0, r: 0, p: 0 }, black: { k: 0, m: 0, s: 0, n: 0, r: 0, p: 0 } });
  });
  test('Makruk and Ouk material: captured roles (rua, ma, khon, met, bia) and the balance in bia', () => {
    assert.deepEqual(mat.makrukMaterial(MAKRUK_START), { captured: { white: [], black: [] }, balance: 0 });
    assert.deepEqual(mat.makrukMaterial('rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde 0 0 1'),
      { captured: { white: [], black: [] }, balance: 0 }, 'an Ouk start position');
    // White lost a rua and two bia; Black a ma, a khon and a bia.
    assert.deepEqual(mat.makrukMaterial('r1smk1nr/8/ppppppp1/8/8/PPPPPP2/8/1NSKMSNR b - - 0 9'),
      { captured: { white: ['r', 'p', 'p'], black: ['n', 's', 'p'] }, balance: (3 + 2.5 + 1) - (5 + 2) });
    // A white rua and khun against a black khun and a promoted met (worth the bia it was).
    assert.deepEqual(mat.makrukMaterial('8/8/4k3/8/3m~4/8/8/R3K3 w - - 0 1'), {
      captured: { white: ['r', 'n', 'n', 's', 's', 'm', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p'], black: ['r', 'r', 'n', 'n', 's', 's', 'm', 'p', 'p', 'p', 'p', 'p', 'p', 'p'] },
      balance: 5 - 1,
    });
    // More pieces than at the start (a set-up position): nothing captured, the balance counts them all.
    assert.deepEqual(mat.makrukMaterial('4k3/8/8/8/8/8/8/RRR1K3 w - - 0 1').captured.white,
      ['n', 'n', 's', 's', 'm', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p']);
    assert.equal(mat.makrukMaterial('4k3/8/8/8/8/8/8/RRR1K3 w - - 0 1').balance, 15);
    assert.deepEqual(mat.MAKRUK_VALUES, { p: 1, m: 2, s: 2.5, n: 3, r: 5, k: 0 });
  });
  test('Mak-hot counts: men and kings of each side', () => {
    assert.deepEqual(mat.makhosCounts(MAKHOS_START), { white: { man: 8, king: 0 }, black: { man: 8, king: 0 } });
    assert.deepEqual(mat.makhosCounts('B:Wa1,Kc3, Ke5:BKb8,d6'), { white: { man: 1, king: 2 }, black: { man: 1, king: 1 } });
    assert.deepEqual(mat.makhosCounts('W:Bh8:W'), { white: { man: 0, king: 0 }, black: { man: 1, king: 0 } });
    assert.deepEqual(mat.makhosCounts('W:Xa1,b2:Wc3'), { white: { man: 1, king: 0 }, black: { man: 0, king: 0 } }, 'a list of no side');
  });
  test('Mak-hot material: men captured from 8 each, a king worth 2 men', () => {
    assert.deepEqual(mat.makhosMaterial(MAKHOS_START), { captured: { white: [], black: [] }, balance: 0 });
    assert.deepEqual(mat.makhosMaterial('W:WKb8,Kd8:BKh2'),
      { captured: { white: Array(6).fill('man'), black: Array(7).fill('man') }, balance: 4 - 2 });
    assert.deepEqual(mat.makhosMaterial('B:Wa1,c1,e1:Bb8,d8,f8,h8,Ka3'),
      { captured: { white: Array(5).fill('man'), black: Array(3).fill('man') }, balance: 3 - 6 });
    assert.deepEqual(mat.makhosMaterial('W:W:B'), { captured: { white: Array(8).fill('man'), black: Array(8).fill('man') }, balance: 0 });
  });

  // ------------------------------------------------------------ premoves
  // chessground's board: pieces by square; premoveDests gives every square
  // the piece's kind of move reaches on an empty board (legality is decided
  // when the turn comes), sorted here for comparison.
  const boardOf = pieces => ({ pieces: new Map(Object.entries(pieces).map(([k, [color, role, promoted]]) =>
    [k, { color, role: `${role}-piece`, ...(promoted ? { promoted: true } : {}) }])) });
  const pre = (pieces, key, makhos = false) => premoveDests(boardOf(pieces), key, makhos).sort();
  const sorted = keys => keys.split(' ').sort();
  test('premoves: none from an empty square', () => {
    assert.deepEqual(pre({ e3: ['white', 'p'] }, 'e4'), []);
    assert.deepEqual(pre({}, 'a1', true), []);
  });
  test('Makruk premoves: a bia goes one forward or captures one diagonally forward, by its colour', () => {
    assert.deepEqual(pre({ e3: ['white', 'p'] }, 'e3'), sorted('d4 e4 f4'));
    assert.deepEqual(pre({ e6: ['black', 'p'] }, 'e6'), sorted('d5 e5 f5'));
    assert.deepEqual(pre({ a3: ['white', 'p'] }, 'a3'), sorted('a4 b4'), 'the board edge');
    assert.deepEqual(pre({ h6: ['black', 'p'] }, 'h6'), sorted('g5 h5'));
  });
  test('Makruk premoves: khon, met (promoted or not), ma and khun step as they move', () => {
    assert.deepEqual(pre({ d4: ['white', 's'] }, 'd4'), sorted('c3 c5 e3 e5 d5'), 'khon: diagonals and one forward');
    assert.deepEqual(pre({ d4: ['black', 's'] }, 'd4'), sorted('c3 c5 e3 e5 d3'));
    assert.deepEqual(pre({ c1: ['white', 's'] }, 'c1'), sorted('b2 c2 d2'));
    assert.deepEqual(pre({ e4: ['white', 'm'] }, 'e4'), sorted('d3 d5 f3 f5'), 'met: one diagonal step');
    assert.deepEqual(pre({ e4: ['black', 'm', true] }, 'e4'), sorted('d3 d5 f3 f5'), 'a promoted bia moves as a met');
    assert.deepEqual(pre({ h8: ['black', 'm'] }, 'h8'), ['g7']);
    assert.deepEqual(pre({ b1: ['white', 'n'] }, 'b1'), sorted('a3 c3 d2'), 'ma');
    assert.deepEqual(pre({ e4: ['black', 'n'] }, 'e4'), sorted('c3 c5 d2 d6 f2 f6 g3 g5'));
    assert.deepEqual(pre({ d1: ['white', 'k'] }, 'd1'), sorted('c1 c2 d2 e1 e2'), 'khun: one step any way');
    assert.deepEqual(pre({ e5: ['black', 'k'] }, 'e5'), sorted('d4 d5 d6 e4 e6 f4 f5 f6'));
  });
  test('Makruk premoves: a rua reaches along its file and rank to the edge, through pieces', () => {
    assert.deepEqual(pre({ a1: ['white', 'r'] }, 'a1'), sorted('a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1'));
    assert.deepEqual(pre({ d5: ['black', 'r'], d6: ['black', 'p'], f5: ['white', 'n'] }, 'd5'),
      sorted('d1 d2 d3 d4 d6 d7 d8 a5 b5 c5 e5 f5 g5 h5'), 'own and enemy pieces in the way');
  });
  test('premoves: a role the game does not have goes nowhere', () => {
    assert.deepEqual(pre({ e4: ['white', 'q'] }, 'e4'), []);
  });
  test('Mak-hot premoves: a man steps diagonally forward and jumps two squares diagonally', () => {
    // The jumps back are among the squares offered (the code's choice; the
    // rules let a man capture forward only, and the server decides).
    assert.deepEqual(pre({ c3: ['white', 'p'] }, 'c3', true), sorted('b4 d4 a5 e5 a1 e1'));
    assert.deepEqual(pre({ d6: ['black', 'p'] }, 'd6', true), sorted('c5 e5 b4 f4 b8 f8'));
    assert.deepEqual(pre({ a1: ['white', 'p'] }, 'a1', true), sorted('b2 c3'), 'the board edge');
    assert.deepEqual(pre({ h8: ['black', 'p'] }, 'h8', true), sorted('g7 f6'));
  });
  test('Mak-hot premoves: a king flies along its diagonals to the edge, through pieces; a Makruk khun does not', () => {
    const b = { c3: ['white', 'k'], e5: ['black', 'p'], b2: ['white', 'p'] };
    assert.deepEqual(pre(b, 'c3', true), sorted('b4 a5 d4 e5 f6 g7 h8 b2 a1 d2 e1'));
    assert.deepEqual(pre(b, 'c3', false), sorted('b2 b3 b4 c2 c4 d2 d3 d4'));
    assert.deepEqual(pre({ h1: ['black', 'k'] }, 'h1', true), sorted('g2 f3 e4 d5 c6 b7 a8'));
  });
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || !passed ? 1 : 0);
