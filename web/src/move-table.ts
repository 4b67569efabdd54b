// The move list as a table of three columns (number, White, Black), shared
// by the game page and the analysis board. Notes (comments, draw offers,
// counts) take a whole row; when one falls between White's and Black's move,
// Black's move starts a new row as "12. …  Me7", as lichess writes it. A game
// that starts with Black to move begins the same way.
import { h } from './dom';
import { tMaybe } from './i18n';

/** One entry of the list, in order. */
export type MoveEntry =
  | {
    kind: 'move';
    /** The move's ply in the game's numbering (1: White's first move), which places it. */
    ply: number;
    /** Its position in the list of positions shown (`data-ply`, for navigation). */
    index: number;
    text: string; current: boolean; go: () => void; san?: string;
    /** An annotation after the move (`?!`, `?`, `??`) and its kind (`inaccuracy`...), a class of its own. */
    mark?: { text: string; kind: string };
  }
  | { kind: 'note'; el: HTMLElement };

/** The cells of the list, for a grid of three columns. */
export function moveCells(entries: MoveEntry[]): HTMLElement[] {
  const cells: HTMLElement[] = [];
  /** Whether the current row holds White's move and waits for Black's. */
  let open = false;
  for (const e of entries) {
    if (e.kind === 'note') {
      if (open) cells.push(h('div', { class: 'mv-gap' }));
      open = false;
      cells.push(e.el);
      continue;
    }
    const white = e.ply % 2 === 1;
    const number = Math.ceil(e.ply / 2);
    if (white) cells.push(h('div', { class: 'mv-no' }, `${number}.`));
    else if (!open) cells.push(h('div', { class: 'mv-no' }, `${number}.`), h('div', { class: 'mv-gap' }, '…'));
    const attrs: Record<string, string | ((ev: Event) => void)> = {
      class: `mv${e.current ? ' current' : ''}`, 'data-ply': String(e.index), onclick: () => e.go(),
    };
    if (e.san !== undefined) attrs['data-san'] = e.san;
    cells.push(h('div', attrs, e.text, ...(e.mark ? [h('span', { class: `mark ${e.mark.kind}`, title: tMaybe(`tabs.${e.mark.kind}`, e.mark.kind) }, e.mark.text)] : [])));
    open = white;
  }
  if (open) cells.push(h('div', { class: 'mv-gap' }));
  return cells;
}
