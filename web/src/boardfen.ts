// Position texts to the board FEN chessground draws.

/** Mak-hot position text (`W:Wa1,Kc3:Bb8`) to a board FEN for chessground (men as `p`, kings as `k`). */
export function makhosBoardFen(text: string): string {
  const grid: string[][] = Array.from({ length: 8 }, () => Array(8).fill(''));
  for (const part of text.split(':').slice(1)) {
    const color = part[0];
    for (let tok of part.slice(1).split(',')) {
      tok = tok.trim();
      if (!tok) continue;
      const king = tok[0] === 'K';
      const sq = king ? tok.slice(1) : tok;
      const file = sq.charCodeAt(0) - 97, rank = +sq.slice(1) - 1;
      // Not a square of the board (`a9`, `i1`, `a1x`): left out.
      if (file < 0 || file > 7 || !Number.isInteger(rank) || rank < 0 || rank > 7) continue;
      const letter = king ? 'k' : 'p';
      grid[rank][file] = color === 'W' ? letter.toUpperCase() : letter;
    }
  }
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; f++) {
      if (grid[r][f]) { if (empty) row += empty; empty = 0; row += grid[r][f]; } else empty++;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

/** The board part chessground draws, for any of our games. */
export function boardFen(variant: string, fen: string): string {
  return variant === 'makhos' ? makhosBoardFen(fen) : fen;
}
