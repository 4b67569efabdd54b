// The notation moves are shown in: the game's own (Makruk SAN, Mak-hot
// algebraic), or Thai notation. Thai notation is written by the rules
// crates and comes from the server with every move (`thai.long`,
// `thai.short`: Fairy-Stockfish's NOTATION_THAI_LAN and NOTATION_THAI_SAN;
// Mak-hot's form with Thai squares); moves typed in Thai are sent as typed
// and read by the server. This module only chooses between the forms, and
// draws squares (board coordinates, engine lines) with Thai letters.

import { Notation } from 'chessgroundx/types';
import type { ThaiText } from './api-types';

/** Thai file letters, a to h. */
export const THAI_FILES = ['ก', 'ข', 'ค', 'ง', 'จ', 'ฉ', 'ช', 'ญ'];
/** Thai digits, 1 to 8 (index 0 is ๑). */
export const THAI_RANKS = ['๑', '๒', '๓', '๔', '๕', '๖', '๗', '๘'];

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

/** A move of an engine line (`e3e4`, `c5c6m`) with Thai squares (the engine speaks UCI). */
export function engineMoveToThai(text: string): string {
  return squaresToThai(text).replace(/m$/, 'ม็');
}

/** Whether a text has Thai letters or digits in it. */
export function hasThai(text: string): boolean {
  return /[\u0E00-\u0E7F]/.test(text);
}

/** Thai piece letters that stand alone before the squares in the long form (`บ จ๓-จ๔`). */
const LONG_FORM_PIECES = new Set(['ข', 'ม็', 'ง', 'ค', 'ม', 'ร', 'บ']);

/**
 * Moves typed in a line, separated by spaces (or commas): a Thai piece
 * letter standing alone belongs to the squares after it, so the long Thai
 * form `บ จ๓-จ๔ บ จ๖-จ๕` is two moves.
 */
export function splitMoves(line: string): string[] {
  if (line.includes(',')) return line.split(',').map(s => s.trim()).filter(Boolean);
  const out: string[] = [];
  let piece: string | null = null;
  for (const word of line.trim().split(/\s+/).filter(Boolean)) {
    if (piece !== null) { out.push(`${piece} ${word}`); piece = null; }
    else if (LONG_FORM_PIECES.has(word)) piece = word;
    else out.push(word);
  }
  if (piece !== null) out.push(piece);
  return out;
}

// ---------------------------------------------------------------- the option

/** The reader's choice: the game's notation, or Thai in its long (default) or short form. */
export type MoveNotation = 'standard' | 'thai-lan' | 'thai-san';
/** Every choice, in the order the menu offers them. */
export const MOVE_NOTATIONS: MoveNotation[] = ['standard', 'thai-lan', 'thai-san'];

const KEY = 'notation';

/** The notation chosen (kept in localStorage; the earlier 'thai' is the long form). */
export function moveNotation(): MoveNotation {
  let v: string | null = null;
  try { v = localStorage.getItem(KEY); } catch { /* private mode */ }
  if (v === 'thai') return 'thai-lan';
  return (MOVE_NOTATIONS as string[]).includes(v ?? '') ? v as MoveNotation : 'standard';
}

/** Whether Thai notation is chosen (squares and board coordinates in Thai too). */
export function thaiNotation(): boolean {
  return moveNotation() !== 'standard';
}

/** Chooses the notation and tells the pages (`notationchange` on `window`). */
export function setMoveNotation(n: MoveNotation): void {
  try { localStorage.setItem(KEY, n); } catch { /* private mode: this page only */ }
  window.dispatchEvent(new Event('notationchange'));
}

/** The coordinates chessgroundx draws: Thai letters and digits when Thai notation is chosen. */
export function boardNotation(): Notation {
  return thaiNotation() ? Notation.THAI_ALGEBRAIC : Notation.ALGEBRAIC;
}

/** A move as the server sends it: its display form and, for moves, its Thai forms. */
export interface ShownMove { san: string; thai?: ThaiText | null }

/** A move for display, in the notation chosen (its own form when the server gave no Thai). */
export function showMove(m: ShownMove, choice: MoveNotation = moveNotation()): string {
  if (choice === 'standard' || !m.thai) return m.san;
  return choice === 'thai-san' ? m.thai.short : m.thai.long;
}

/** A square for display: Thai when Thai notation is chosen. */
export function showSquare(sq: string): string {
  return thaiNotation() ? squareToThai(sq) : sq;
}

/** An engine-form move for display. */
export function showEngineMove(text: string): string {
  return thaiNotation() ? engineMoveToThai(text) : text;
}
