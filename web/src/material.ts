// Material on the board and captured pieces, read from a position's text.

/** Pieces of one side by role letter (Makruk: k m s n r p; Mak-hot: man, king). */
export type Counts = Record<string, number>;

export interface Material {
  /** Roles captured from each side (the piece images' names). */
  captured: { white: string[]; black: string[] };
  /** Material balance in bia (Makruk) or men (Mak-hot) units: positive when White is ahead. */
  balance: number;
}

const MAKRUK_START: Counts = { k: 1, m: 1, s: 2, n: 2, r: 2, p: 8 };
/** Usual piece values in bia units. */
export const MAKRUK_VALUES: Counts = { p: 1, m: 2, s: 2.5, n: 3, r: 5, k: 0 };

/** Counts the pieces of a Makruk FEN; a promoted met (`M~`) counts as the bia it was. */
export function makrukCounts(fen: string): { white: Counts; black: Counts } {
  const white: Counts = { k: 0, m: 0, s: 0, n: 0, r: 0, p: 0 };
  const black: Counts = { k: 0, m: 0, s: 0, n: 0, r: 0, p: 0 };
  const board = fen.split(' ')[0] ?? '';
  for (let i = 0; i < board.length; i++) {
    const c = board[i];
    if (!/[a-zA-Z]/.test(c)) continue;
    const promoted = board[i + 1] === '~';
    const side = c === c.toUpperCase() ? white : black;
    let role = c.toLowerCase();
    if (role === 'q') role = 'm';
    if (role === 'b') role = 's';
    if (promoted) role = 'p';
    if (role in side) side[role]++;
  }
  return { white, black };
}

/** Captured pieces and balance of a Makruk or Ouk Chatrang position. */
export function makrukMaterial(fen: string): Material {
  const { white, black } = makrukCounts(fen);
  const lost = (side: Counts) =>
    ['r', 'n', 's', 'm', 'p'].flatMap(role => Array(Math.max(0, MAKRUK_START[role] - side[role])).fill(role) as string[]);
  const value = (side: Counts) => Object.entries(side).reduce((sum, [r, n]) => sum + MAKRUK_VALUES[r] * n, 0);
  return { captured: { white: lost(white), black: lost(black) }, balance: value(white) - value(black) };
}

/** Men and kings of a Mak-hot position text (`W:Wa1,Kc3:Bb8`). */
export function makhosCounts(text: string): { white: Counts; black: Counts } {
  const out = { white: { man: 0, king: 0 } as Counts, black: { man: 0, king: 0 } as Counts };
  for (const part of text.split(':').slice(1)) {
    const side = part[0] === 'W' ? out.white : part[0] === 'B' ? out.black : null;
    if (!side) continue;
    for (const sq of part.slice(1).split(',').filter(s => s.trim())) side[sq.trim().startsWith('K') ? 'king' : 'man']++;
  }
  return out;
}

/** Captured pieces (each side starts with 8 men) and balance, a king counting as 2 men. */
export function makhosMaterial(text: string): Material {
  const { white, black } = makhosCounts(text);
  const lost = (side: Counts) => Array(Math.max(0, 8 - side.man - side.king)).fill('man') as string[];
  const value = (side: Counts) => side.man + 2 * side.king;
  return { captured: { white: lost(white), black: lost(black) }, balance: value(white) - value(black) };
}
