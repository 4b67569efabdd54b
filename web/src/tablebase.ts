// The endgame tables' verdict on a position, as a sentence: the result and the
// count that decides it (GET /api/tablebase, the JSON of `thaiboard tb probe
// --json`). Makruk answers carry `dtm` (pieces' honour: plies to mate) or
// `dtc` (board's honour, bias on the board: plies to mate or to the capture or
// promotion that starts a new count), and `plies_left`, the plies the running
// count leaves; Mak-hot answers carry `dtz` (plies to the next capture or man
// move, under the 32-ply rule) and, where the tables have them, `dtw` (plies to
// the end of the game).
import { type SpokenCount, spokenText } from './count';
import { t } from './i18n';

/** The API's answer (only what the sentence needs). */
export interface TablebaseAnswer {
  category: 'win' | 'draw' | 'loss';
  dtm?: number | null;
  dtc?: number | null;
  dtz?: number | null;
  dtw?: number | null;
  plies_left?: number | null;
  /** The running count as players say it (Makruk, while one runs). */
  count?: SpokenCount | null;
}

/** Moves (of both sides' plies, rounded up) in `plies`. */
const movesOf = (plies: number) => Math.ceil(Math.abs(plies) / 2);

/**
 * The count a Makruk FEN runs, in moves (its limit, field 4, is in plies), or
 * null when none runs.
 */
export function countMoves(fen: string): number | null {
  const limit = Number(fen.split(' ')[3]);
  return Number.isFinite(limit) && limit > 0 ? limit / 2 : null;
}

/** The sentence for `a`, the tables' answer on the position `fen` of `variant`. */
export function tablebaseText(variant: string, fen: string, a: TablebaseAnswer): string {
  if (variant === 'makhos') {
    if (a.category === 'draw' || a.dtz == null) return t('tb.draw');
    const win = a.category === 'win';
    if (a.dtw != null) {
      return t(win ? 'tb.makhosWinEnd' : 'tb.makhosLossEnd', { end: Math.abs(a.dtw), plies: Math.abs(a.dtz) });
    }
    return t(win ? 'tb.makhosWin' : 'tb.makhosLoss', { plies: Math.abs(a.dtz) });
  }
  const count = countMoves(fen);
  const left = a.plies_left;
  const mate = a.dtm != null;
  const distance = a.dtm ?? a.dtc;
  if (a.category !== 'win' && a.category !== 'loss') {
    // Decided without the count, but the count runs out first.
    if (distance != null && left != null && Math.abs(distance) > left) {
      const key = mate ? 'tb.countBeforeMate' : 'tb.countBeforeConversion';
      return t(key, { moves: movesOf(Math.abs(distance) - left) });
    }
    return t('tb.draw');
  }
  const keys = KEYS[a.category][mate ? 'mate' : 'conversion'];
  return t(keys[count != null && a.count ? 1 : 0], { moves: movesOf(distance ?? 0), spoken: a.count ? spokenText(a.count) : '' });
}

/** Each result's sentences: without a count running, then with one. */
const KEYS = {
  win: {
    mate: ['tb.winMate', 'tb.winMateCount'],
    conversion: ['tb.winConversion', 'tb.winConversionCount'],
  },
  loss: {
    mate: ['tb.lossMate', 'tb.lossMateCount'],
    conversion: ['tb.lossConversion', 'tb.lossConversionCount'],
  },
} as const;
