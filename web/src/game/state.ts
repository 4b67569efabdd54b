// The game page's state: the game as the server last sent it, its actions,
// this viewer's side, which way the board faces and which position is shown,
// with the values derived from them. The components of the page (board, move
// list, clocks, controls) read it; `update` (a message from the server), the
// navigation and the flip button change it.
import type * as api from '../api';
import { makhosBoardFen } from '../boardfen';
import { type ShownMove, showMove } from '../notation';
import type { Ply } from '../tabs';

export type Color = 'white' | 'black';

/** Sends a command over the game socket; resolves with the server's ack or error. */
export type Send = api.GameSocket['send'];

/** Clock time that runs from `from` to `to` (server ms): wall time less the pauses for leave in it. */
export function runningBetween(pauses: readonly { from: number; until: number }[], from: number, to: number): number {
  let paused = 0;
  for (const p of pauses) paused += Math.max(0, Math.min(p.until, to) - Math.max(p.from, from));
  return Math.max(0, to - from - paused);
}

export class GameState {
  /** The game as the server last sent it (its `actions` are `this.actions`). */
  game: api.Game;
  /** Moves and other events (draw offers, counts, …), in order. */
  actions: api.Action[];
  /** When `game` arrived: the running clock counts down from there. */
  received = Date.now();
  /** This viewer's colour; null for a spectator. */
  myColor: Color | null;
  /** The side at the bottom of the board. */
  orientation: Color;
  /** Index into `plies()` of the position shown; -1 follows the latest. */
  view = -1;
  /** Whether the game belongs to a tournament (set once known): such games cannot be aborted. */
  inTournament = false;
  /** Mak-hot (draughts) rather than Makruk or a Makruk variant. */
  readonly isMakhos: boolean;

  /** `id`: the game's id as in the page's address; `me`: the signed-in user (or guest) viewing it. */
  constructor(readonly id: string, game: api.Game, readonly me: api.User) {
    this.game = game;
    this.actions = game.actions ?? [];
    this.isMakhos = game.variant === 'makhos';
    this.myColor = this.colorOf();
    this.orientation = this.myColor ?? (game.creator.id === me.id && game.creator_color === 'black' ? 'black' : 'white');
  }

  private colorOf(): Color | null {
    return this.game.white?.id === this.me.id ? 'white' : this.game.black?.id === this.me.id ? 'black' : null;
  }

  /**
   * Takes in a game sent by the server: with all its actions (`full`), or with
   * the one new `action`. Returns false when the actions received do not add
   * up to the game's moves (one was missed): the caller fetches the whole game.
   */
  update(g: api.Game, action: api.Action | null, full: boolean): boolean {
    this.received = Date.now();
    if (full) this.actions = g.actions ?? [];
    else if (action && !this.actions.some(a => a.seq === action.seq)) this.actions.push(action);
    const moves = this.actions.filter(a => a.kind === 'move').length;
    this.game = { ...g, actions: this.actions };
    const before = this.myColor;
    this.myColor = this.colorOf();
    // A player who has just taken a seat sees the board from their side.
    if (!before && this.myColor) this.orientation = this.myColor;
    return moves === g.ply;
  }

  /** Every position of the game from the start, one per move (other actions change the last one's FEN). */
  plies(): Ply[] {
    const start: Ply = { fen: this.game.start_fen, san: '', last: [], turn: 'white' };
    const list = [start];
    for (const a of this.actions) {
      if (a.kind !== 'move') { list[list.length - 1] = { ...list[list.length - 1], fen: a.fen }; continue; }
      const last = this.isMakhos ? a.uci.match(/../g) ?? [] : [a.uci.slice(0, 2), a.uci.slice(2, 4)];
      list.push({ fen: a.fen, san: a.san, last, turn: list.length % 2 === 1 ? 'black' : 'white' });
    }
    return list;
  }

  /** Index into `plies()` of the position on the board. */
  shownIndex(): number { return this.view < 0 ? this.plies().length - 1 : this.view; }
  /** Whether the board shows the latest position. */
  atLatest(): boolean { return this.shownIndex() === this.plies().length - 1; }
  /** Whether the game is on and this viewer is to move. */
  myTurn(): boolean { return this.game.status === 'ongoing' && this.myColor === this.game.turn; }

  /** A side's time left now, counting down from `received` while its clock runs. */
  timeLeft(color: Color): number {
    const clock = this.game.clock;
    const ms = color === 'white' ? clock.white_ms : clock.black_ms;
    if (clock.running !== color) return ms;
    return ms - runningBetween(clock.pauses, clock.server_now, clock.server_now + (Date.now() - this.received));
  }

  /** When the running clock stands still now for leave, the moment it runs again. */
  pausedUntil(): number | null {
    const clock = this.game.clock;
    const now = clock.server_now + (Date.now() - this.received);
    return clock.pauses.find(p => p.from <= now && now < p.until)?.until ?? null;
  }

  /** A position's FEN as the board draws it (Mak-hot FENs are converted). */
  toBoard(fen: string): string { return this.isMakhos ? makhosBoardFen(fen) : fen; }
  /** A move as the interface shows it (Thai notation, from the server, if chosen). */
  showMove(m: ShownMove): string { return showMove(m); }
}
