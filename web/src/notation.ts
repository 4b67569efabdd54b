// Thai notation for moves and squares, and back.
//
// Squares: files a–h are the Thai letters ก ข ค ง จ ฉ ช ญ, ranks 1–8 the
// Thai digits ๑–๘ (f3 is ฉ๓; Thai Makruk primers name squares ก๑ … ญ๘, and
// chessgroundx's Thai coordinates are the same).
//
// Makruk moves: SAN with the first letter of each piece's Thai name: ข ขุน
// (khun), ม็ เม็ด (met; ม with the mai taikhu mark, to tell it from ม ม้า, as
// the Thai Wikipedia article on Makruk labels the khun ข and the met ม็ in
// its diagrams), ค โคน (khon), ม ม้า (ma), ร เรือ (ruea), บ เบี้ย (bia). Thai script has no capital
// letters, so a bia move carries its letter too (`e4` is บจ๔, `exd5` is
// บจxง๕): ข and ค are both piece letters and files, and without บ `bxc6`
// and `Kxc6` would both read ขxค๖. Captures keep `x`, checks `+`/`#`, a
// promotion `=ม็`. Examples: Nf3 มฉ๓, Sxd4 คxง๔, Nbd2 มขง๒, c6=M บค๖=ม็.
//
// Mak-hot moves keep their form with Thai squares: c3-d4 is ค๓-ง๔, c3xe5xc7
// is ค๓xจ๕xค๗.
//
// Reading (the move box) is lenient: a bia move may leave out บ, a piece may
// be written as its full name (ม้าฉ๓), ranks may be Arabic digits, and
// engine-form moves (จ๓จ๔) are read too. A text may have two readings (ขxค๖
// is the khun's capture, or the bia's written without บ): `thaiToSan` returns
// both, the strict one first, and `pickMove` takes the first that is legal.

import { Notation } from 'chessgroundx/types';

/** Thai file letters, a to h. */
export const THAI_FILES = ['ก', 'ข', 'ค', 'ง', 'จ', 'ฉ', 'ช', 'ญ'];
/** Thai digits, 1 to 8 (index 0 is ๑). */
export const THAI_RANKS = ['๑', '๒', '๓', '๔', '๕', '๖', '๗', '๘'];

const MET = 'ม็';
/** Makruk SAN piece letters (Fairy-Stockfish's, with SchemingMind's Q/B) to Thai. */
const PIECE_TO_THAI: Record<string, string> = { K: 'ข', M: MET, Q: MET, S: 'ค', B: 'ค', N: 'ม', R: 'ร', P: 'บ' };
/** Thai piece letters (longest first) to SAN letters; '' is the bia. */
const THAI_PIECES: [string, string][] = [[MET, 'M'], ['ข', 'K'], ['ค', 'S'], ['ม', 'N'], ['ร', 'R'], ['บ', '']];
/** Full Thai piece names accepted in the move box, turned into their letters. */
const THAI_NAMES: [string, string][] = [['ขุน', 'ข'], ['เม็ด', MET], ['โคน', 'ค'], ['ม้า', 'ม'], ['เรือ', 'ร'], ['เบี้ย', 'บ']];

const FILES = 'abcdefgh';

/** A square in Thai (`f3` → `ฉ๓`); anything else comes back unchanged. */
export function squareToThai(sq: string): string {
  const f = FILES.indexOf(sq[0]), r = +sq.slice(1) - 1;
  if (sq.length !== 2 || f < 0 || !(r >= 0 && r < 8)) return sq;
  return THAI_FILES[f] + THAI_RANKS[r];
}

/** Every square written in a text (`c3xe5`, `e3e4`) in Thai; the rest kept. */
export function squaresToThai(text: string): string {
  return text.replace(/[a-h][1-8]/g, sq => squareToThai(sq));
}

/** A Makruk or Ouk Chatrang SAN (`Nf3`, `exd5`, `c6=M+`) in Thai notation; text that is not SAN comes back unchanged. */
export function makrukSanToThai(san: string): string {
  const m = san.match(/^([KMQSBNRP])?([a-h])?([1-8])?(x)?([a-h][1-8])(=[MQP]?)?([+#]?)([!?]*)$/);
  if (!m) return san;
  const [, piece, file, rank, cap, to, promo, check, marks] = m;
  let out = PIECE_TO_THAI[piece ?? 'P'];
  if (file) out += THAI_FILES[FILES.indexOf(file)];
  if (rank) out += THAI_RANKS[+rank - 1];
  if (cap) out += 'x';
  out += squareToThai(to);
  if (promo) out += '=' + MET;
  return out + check + marks;
}

/** A Mak-hot move (`c3-d4`, `c3xe5xc7`) in Thai squares. */
export function makhosMoveToThai(text: string): string {
  return squaresToThai(text);
}

/** A move of any of our games, as the server writes it, in Thai notation. */
export function moveToThai(variant: string, san: string): string {
  return variant === 'makhos' ? makhosMoveToThai(san) : makrukSanToThai(san);
}

/** A move of an engine line (`e3e4`, `c3e5c7`, `c5c6m`) with Thai squares. */
export function engineMoveToThai(text: string): string {
  return squaresToThai(text).replace(/m$/, MET);
}

/** Thai letters and digits (Thai or Arabic) of squares back to `a1`-style text; other characters kept. */
export function thaiSquaresToLatin(text: string): string {
  let out = '';
  for (const ch of text) {
    const f = THAI_FILES.indexOf(ch), r = THAI_RANKS.indexOf(ch);
    out += f >= 0 ? FILES[f] : r >= 0 ? String(r + 1) : ch;
  }
  return out;
}

/** Spaces removed, full piece names turned into letters, `×`/`:` into `x`. */
function normalizeThai(text: string): string {
  let s = text.replace(/\s+/g, '').replace(/[×:]/g, 'x');
  for (const [name, letter] of THAI_NAMES) s = s.split(name).join(letter);
  return s;
}

/** The part after the piece letter: disambiguation, capture, square, promotion, check. */
const REST = /^([a-h])?([1-8])?(x)?([a-h][1-8])(=(?:ม็|M)?)?([+#]?)$/;

/**
 * The SAN readings of a Makruk move in Thai notation (`มฉ๓` → `["Nf3"]`;
 * `ขxค๖` → `["Kxc6", "bxc6"]`), engine form too (`จ๓จ๔` → `e3e4`). Empty
 * when the text is no move in Thai notation.
 */
export function thaiToSan(text: string): string[] {
  const s = normalizeThai(text);
  const out: string[] = [];
  const add = (x: string) => { if (!out.includes(x)) out.push(x); };
  // With a piece letter first.
  for (const [thai, letter] of THAI_PIECES) {
    if (!s.startsWith(thai)) continue;
    const rest = s.slice(thai.length);
    if (thai === 'ม' && rest.startsWith('\u0E47')) continue; // ม็ is the met
    const m = thaiSquaresToLatin(rest).match(REST);
    if (!m) continue;
    const [, file, rank, cap, to, promo, check] = m;
    if (promo !== undefined && letter !== '') continue;
    if (letter === '' && (rank || (cap && !file) || (file && !cap))) {
      // A bia: `บจ๔`, `บจxง๕` (its file, only when capturing).
      continue;
    }
    add(letter + (file ?? '') + (rank ?? '') + (cap ?? '') + to + (promo !== undefined ? '=M' : '') + check);
  }
  // A bia move without บ (`จ๔`, `จxง๕`), or engine form (`จ๓จ๔`).
  const latin = thaiSquaresToLatin(s);
  const pawn = latin.match(/^([a-h]x)?([a-h][1-8])(=(ม็|M)?)?([+#]?)$/);
  if (pawn) add((pawn[1] ?? '') + pawn[2] + (pawn[3] !== undefined ? '=M' : '') + pawn[5]);
  const engine = latin.match(/^([a-h][1-8])([a-h][1-8])(ม็|m)?$/);
  if (engine) add(engine[1] + engine[2] + (engine[3] ? 'm' : ''));
  return out;
}

/** A Mak-hot move in Thai squares back to algebraic (`ค๓-ง๔` → `c3-d4`); null when it is none. */
export function thaiToMakhos(text: string): string | null {
  const s = thaiSquaresToLatin(text.replace(/\s+/g, '').replace(/[×:]/g, 'x'));
  return /^[a-h][1-8]([-x]?[a-h][1-8])+$/.test(s) ? s : null;
}

/**
 * A move written with no position at hand (a conditional line) in the
 * server's notation: Thai read strictly (its first reading), other text
 * as it is.
 */
export function thaiToServer(variant: string, text: string): string {
  if (!hasThai(text)) return text;
  const read = variant === 'makhos' ? thaiToMakhos(text) : thaiToSan(text)[0];
  return read ?? text;
}

/** Whether a text has Thai letters or digits in it. */
export function hasThai(text: string): boolean {
  return /[\u0E00-\u0E7F]/.test(text);
}

/** A legal move as the server lists it. */
export interface Legal { uci: string; san: string }

/** SAN without check marks and Makruk's `=M` (a bia always promotes). */
function bareSan(san: string): string {
  return san.replace(/[+#!?]+$/, '').replace(/=[MQP]?$/, '');
}

/**
 * What the move box sends for a text in Thai notation, given the legal
 * moves: the engine form of the legal move its first legal reading names;
 * when no reading is legal, the first reading (the server says why it is
 * refused); null when the text is no move in Thai notation.
 */
export function pickMove(variant: string, text: string, legal: Legal[]): { move: string } | null {
  const readings = variant === 'makhos' ? [thaiToMakhos(text)].filter((x): x is string => !!x) : thaiToSan(text);
  if (!readings.length) return null;
  for (const r of readings) {
    const hit = legal.find(m => variant === 'makhos'
      ? m.san === r || m.uci === r.replace(/[-x]/g, '')
      : bareSan(m.san) === bareSan(r) || m.uci === r);
    if (hit) return { move: hit.uci };
  }
  return { move: readings[0] };
}

// ---------------------------------------------------------------- the option

const KEY = 'notation';

/** Whether the board and moves are shown in Thai notation (the reader's choice, kept in localStorage). */
export function thaiNotation(): boolean {
  try { return localStorage.getItem(KEY) === 'thai'; } catch { return false; }
}

/** Turns Thai notation on or off and tells the pages (`notationchange` on `window`). */
export function setThaiNotation(on: boolean): void {
  try { localStorage.setItem(KEY, on ? 'thai' : 'standard'); } catch { /* private mode: this page only */ }
  window.dispatchEvent(new Event('notationchange'));
}

/** The coordinates chessgroundx draws: Thai letters and digits when the option is on. */
export function boardNotation(): Notation {
  return thaiNotation() ? Notation.THAI_ALGEBRAIC : Notation.ALGEBRAIC;
}

/** A move for display: Thai notation when the option is on. */
export function showMove(variant: string, san: string): string {
  return thaiNotation() ? moveToThai(variant, san) : san;
}

/** A square for display: Thai when the option is on. */
export function showSquare(sq: string): string {
  return thaiNotation() ? squareToThai(sq) : sq;
}

/** An engine-form move for display. */
export function showEngineMove(text: string): string {
  return thaiNotation() ? engineMoveToThai(text) : text;
}
