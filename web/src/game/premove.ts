// Where a piece may be premoved (moved ahead, during the opponent's turn):
// every square its kind of move could reach on an empty board, as lichess
// does it, since the opponent's move is not known yet. Whether the premove
// is legal is decided when the turn comes (the board plays it or drops it).
import type { BoardState, Key } from 'chessgroundx/types';

const FILES = 'abcdefgh';

function square(f: number, r: number): Key | null {
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? (`${FILES[f]}${r + 1}` as Key) : null;
}

/** Squares one step away by each of `steps` (file, rank offsets). */
function steps(f: number, r: number, list: [number, number][]): Key[] {
  return list.map(([df, dr]) => square(f + df, r + dr)).filter((k): k is Key => k !== null);
}

/** Squares along each of `dirs` to the board's edge. */
function lines(f: number, r: number, dirs: [number, number][]): Key[] {
  const out: Key[] = [];
  for (const [df, dr] of dirs) {
    for (let i = 1; i < 8; i++) {
      const k = square(f + df * i, r + dr * i);
      if (!k) break;
      out.push(k);
    }
  }
  return out;
}

const DIAGONALS: [number, number][] = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const ORTHOGONALS: [number, number][] = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const KNIGHT: [number, number][] = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];

/** The premove squares of the piece on `key` (none for an empty square). */
export function premoveDests(board: BoardState, key: Key, makhos: boolean): Key[] {
  const piece = board.pieces.get(key);
  if (!piece) return [];
  const f = FILES.indexOf(key[0]), r = Number(key.slice(1)) - 1;
  const up = piece.color === 'white' ? 1 : -1;
  if (makhos) {
    // Men step or jump forward diagonally; kings fly along the diagonals.
    if (piece.role === 'k-piece') return lines(f, r, DIAGONALS);
    return steps(f, r, [[1, up], [-1, up], [2, 2 * up], [-2, 2 * up], [2, -2 * up], [-2, -2 * up]]);
  }
  switch (piece.role) {
    case 'k-piece': return steps(f, r, [...DIAGONALS, ...ORTHOGONALS]);
    case 'm-piece': return steps(f, r, DIAGONALS);
    case 's-piece': return steps(f, r, [...DIAGONALS, [0, up]]);
    case 'n-piece': return steps(f, r, KNIGHT);
    case 'r-piece': return lines(f, r, ORTHOGONALS);
    case 'p-piece': return steps(f, r, [[0, up], [1, up], [-1, up]]);
    default: return [];
  }
}
