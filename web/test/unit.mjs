// Unit checks of the web board's pure modules, in Node (no browser):
// - i18n.ts: the English and Thai tables have the same keys and the same
//   {placeholders}, no empty text, and t() fills parameters;
// - notation.ts: choosing the server's Thai forms, Thai squares, splitting
//   a typed line of moves (Thai notation itself comes from the rules crates);
// - game/state.ts: the game page's positions, view, seat and update checks;
//   game/clocks.ts: the clock format; labels.ts: ratings and their changes.
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
    },
    bundle: true, format: 'esm', platform: 'node', outdir: out, logLevel: 'warning',
  });
  const i18n = await import(join(out, 'i18n.js'));
  const n = await import(join(out, 'notation.js'));
  const { GameState, runningBetween } = await import(join(out, 'state.js'));
  const { fmtClock } = await import(join(out, 'clocks.js'));
  const labels = await import(join(out, 'labels.js'));
  const tb = await import(join(out, 'tablebase.js'));

  // ------------------------------------------------------------ tablebase
  test('the tables\' verdict names the result and the count that decides it', () => {
    i18n.setLang('en');
    // White mates in 21 plies with the 16-move pieces'-honour count running.
    assert.equal(tb.tablebaseText('makruk', '8/8/8/8/8/3k4/8/R2K4 w - 32 6 1', { category: 'win', dtm: 21, plies_left: 27 }),
      'Win: mate in 11 within the 16-move count');
    assert.equal(tb.tablebaseText('makruk', '8/8/8/8/8/3k4/8/R2K4 b - 32 6 1', { category: 'loss', dtm: -20, plies_left: 27 }),
      'Loss: mated in 10 within the 16-move count');
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
    assert.equal(i18n.t('game.countLine', { who: 'x', kind: 'y', ply: 3, limit: 64 }), 'x (y): 3 of 64 plies');
    i18n.setLang('th');
    assert.equal(i18n.lang(), 'th');
    assert.equal(i18n.t('top.playingAs', { name: 'somchai' }), 'เล่นในชื่อ somchai');
    assert.equal(i18n.t('variant.makhos'), 'หมากฮอส');
    assert.equal(i18n.t('game.boardHonour'), 'นับศักดิ์กระดาน');
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
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || !passed ? 1 : 0);
