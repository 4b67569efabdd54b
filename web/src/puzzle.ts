// The puzzle page (/puzzle, /puzzle/{id}, /puzzle/daily?variant=): find the
// winning line, playing against the server's replies. A wrong move ends the
// puzzle: the solution is shown, with "retry" and "next". An account's first
// round on a puzzle is rated (the change is shown); guests play unrated. The
// streak mode serves puzzles of rising rating until the first mistake: an
// account's rounds are posted to its streak run and the server keeps its
// best streak (the server's count); a guest's best is kept in this browser.
// Also the lobby's daily puzzle panel.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key } from 'chessgroundx/types';
import * as api from './api';
import { boardFen } from './boardfen';
import { h } from './dom';
import { t, tMaybe } from './i18n';
import { variantName } from './labels';
import { boardNotation } from './notation';

/** A puzzle as the server answers it (`GET /api/puzzle/...`). */
export interface PuzzleAnswer {
  game: { variant: string; rules: string; name: string; source: string | null };
  puzzle: { id: string; fen: string; color: 'white' | 'black'; solution: string[]; themes: string[]; rating: number; plays: number; initialPly: number };
  user: { rating: number; provisional: boolean } | null;
}

interface RoundAnswer {
  round: { win: boolean; rated: boolean; ratingDiff: number };
  user: { rating: number; provisional: boolean; ratingDiff: number } | null;
  puzzle: { id: string; rating: number; ratingDiff: number; plays: number };
}

/** `POST /api/puzzle/streak`: the puzzles, and an account's run and best. */
interface StreakAnswer { puzzles: string[]; run: string | null; best: number | null }

/** `POST /api/puzzle/streak/{run}/round`: the server's count. */
interface StreakRoundAnswer { win: boolean; counted: boolean; score: number; over: boolean; next: string | null; best: number }

interface PositionView { fen: string; turn: 'white' | 'black'; legal: api.LegalMove[]; result: string }

const VARIANTS = ['makruk', 'cambodian', 'makhos'];
const THEMES = ['mateIn1', 'mateIn2', 'mateIn3', 'countingWin', 'promotion', 'fork', 'hangingPiece', 'sacrifice', 'multiCapture', 'kingWin'];

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const bestKey = (variant: string) => `thaiboard.puzzleStreak.${variant}`;
/** The best streak of this browser in `variant` (a guest's). */
export const bestStreak = (variant: string): number => Number(localStorage.getItem(bestKey(variant)) ?? 0) || 0;

/** The squares of a move in engine form (UCI `e3e4`, `a6a7m`; Mak-hot `c3e5g7`). */
function squares(uci: string, makhos: boolean): Key[] {
  return (makhos ? uci.match(/[a-h][1-8]/g) ?? [] : [uci.slice(0, 2), uci.slice(2, 4)]) as Key[];
}

/** Renders the puzzle page into `root`: `id` a puzzle, `'daily'` the day's, or none for the next one. */
export async function puzzlePage(root: HTMLElement, id?: string): Promise<void> {
  const params = new URLSearchParams(location.search);
  document.title = `${t('puzzle.title')} · thaiboard`;
  let variant = VARIANTS.includes(params.get('variant') ?? '') ? params.get('variant')! : 'makruk';
  let theme = params.get('theme') ?? '';
  let streakMode = params.get('mode') === 'streak';

  const boardEl = h('div', { class: 'cg-wrap', id: 'board' });
  const boardCol = h('div', { class: 'board-col makruk' }, boardEl);
  const status = h('div', { class: 'status', id: 'puzzle-status', role: 'status', 'aria-live': 'polite' });
  const info = h('p', { class: 'muted', id: 'puzzle-info' });
  const result = h('div', { id: 'puzzle-result' });
  const err = h('div', { class: 'error', id: 'puzzle-error', role: 'alert' });
  const streakEl = h('p', { id: 'puzzle-streak' });
  const bestEl = h('p', { id: 'puzzle-best' });
  const variantSel = h('select', { id: 'puzzle-variant', 'aria-label': t('puzzle.variant') },
    ...VARIANTS.map(v => h('option', { value: v }, variantName(v)))) as HTMLSelectElement;
  variantSel.value = variant;
  const themeSel = h('select', { id: 'puzzle-theme', 'aria-label': t('puzzle.theme') },
    h('option', { value: '' }, t('puzzle.anyTheme')), ...THEMES.map(th => h('option', { value: th }, themeName(th)))) as HTMLSelectElement;
  themeSel.value = THEMES.includes(theme) ? theme : '';
  const modeSel = h('select', { id: 'puzzle-mode', 'aria-label': t('puzzle.mode') },
    h('option', { value: 'rated' }, t('puzzle.modeRated')), h('option', { value: 'streak' }, t('puzzle.modeStreak'))) as HTMLSelectElement;
  modeSel.value = streakMode ? 'streak' : 'rated';
  const actions = h('div', { class: 'row', id: 'puzzle-actions' });
  root.replaceChildren(h('div', { class: 'game puzzle' },
    boardCol,
    h('div', { class: 'side-col' },
      h('h2', {}, t('puzzle.title')),
      h('div', { class: 'row' }, variantSel, themeSel, modeSel),
      err, status, info, streakEl, bestEl, result, actions)));

  const cg: Api = Chessground(boardEl, {
    fen: '8/8/8/8/8/8/8/8', dimensions: { width: 8, height: 8 }, coordinates: true, notation: boardNotation(),
    highlight: { lastMove: true, check: true },
    movable: { free: false, showDests: true, events: { after: (orig: Key, dest: Key) => void onMove(orig, dest) } },
  });

  let current: PuzzleAnswer | null = null;
  let played: string[] = [];
  let view: PositionView | null = null;
  let over = false;
  let streak: string[] = [];
  let streakAt = 0;
  let streakScore = 0;
  // An account's streak run and best (from the server); null for a guest.
  let streakRun: string | null = null;
  let serverBest: number | null = null;

  const makhos = () => current?.game.variant === 'makhos';
  const positionUrl = (moves: string[]) => {
    const p = current!;
    const q = new URLSearchParams({ variant: p.game.variant, rules: p.game.rules, fen: p.puzzle.fen });
    if (moves.length) q.set('moves', moves.join(','));
    return `/api/position?${q.toString()}`;
  };

  /** Draws the position after `played`; the solver may move when it is their turn and the puzzle goes on. */
  async function draw(): Promise<void> {
    const p = current!;
    view = await api.call<PositionView>('GET', positionUrl(played));
    const dests = new Map<Key, Key[]>();
    for (const m of view.legal) {
      const from = m.path[0] as Key, to = m.path[m.path.length - 1] as Key;
      dests.set(from, [...(dests.get(from) ?? []).filter(d => d !== to), to]);
    }
    const last = played.length ? squares(played[played.length - 1], makhos()) : [];
    const mine = !over && view.turn === p.puzzle.color && view.result === 'ongoing';
    cg.set({ fen: boardFen(p.game.variant, view.fen), turnColor: view.turn, lastMove: last, movable: { color: mine ? p.puzzle.color : undefined, dests } });
    // How many moves are on the board (the browser tests wait for the reply by it).
    status.dataset.ply = String(played.length);
  }

  function showStreak(): void {
    const best = serverBest ?? bestStreak(variant);
    streakEl.textContent = streakMode ? t('puzzle.streakScore', { score: streakScore }) : '';
    bestEl.textContent = streakMode ? t('puzzle.best', { best }) : '';
    bestEl.dataset.best = String(best);
  }

  /** Reports a streak round: an account's to its run (the server counts it), a guest's to this browser. */
  async function streakRound(win: boolean): Promise<void> {
    if (streakRun) {
      try {
        const r = await api.call<StreakRoundAnswer>('POST', `/api/puzzle/streak/${streakRun}/round`, { puzzle: current!.puzzle.id, moves: played });
        streakScore = r.score;
        serverBest = r.best;
      } catch (e) { err.textContent = (e as Error).message; }
    } else if (win) {
      streakScore++;
      if (streakScore > bestStreak(variant)) localStorage.setItem(bestKey(variant), String(streakScore));
    }
    showStreak();
  }

  async function show(answer: PuzzleAnswer): Promise<void> {
    current = answer; played = []; over = false;
    delete status.dataset.outcome;
    const p = answer.puzzle;
    boardCol.className = `board-col ${answer.game.variant === 'makhos' ? 'makhos' : 'makruk'}`;
    cg.set({ orientation: p.color, kingRoles: answer.game.variant === 'makhos' ? [] : ['k-piece'] });
    history.replaceState(null, '', `/puzzle/${p.id}${streakMode ? `?mode=streak&variant=${variant}` : ''}`);
    result.replaceChildren();
    actions.replaceChildren();
    err.textContent = '';
    status.textContent = t(p.color === 'white' ? 'puzzle.findWhite' : 'puzzle.findBlack');
    const themes = p.themes.map(themeName).join(', ');
    info.textContent = `${variantName(answer.game.variant)} · ${t('puzzle.rating', { rating: p.rating })} · ${t('puzzle.plays', { plays: p.plays })}${themes ? ` · ${themes}` : ''}`;
    info.dataset.id = p.id;
    showStreak();
    await draw();
  }

  async function onMove(orig: string, dest: string): Promise<void> {
    if (!current || !view || over) return;
    const cands = view.legal.filter(m => m.path[0] === orig && m.path[m.path.length - 1] === dest);
    if (!cands.length) { await draw(); return; }
    // Of several moves between the same squares, the solution's if it is one of them.
    const expected = current.puzzle.solution[played.length];
    const uci = (cands.find(m => m.uci === expected) ?? cands[0]).uci;
    played.push(uci);
    let right = uci === expected;
    if (!right && played.length === current.puzzle.solution.length) {
      // Another move that wins at once on the last move is right too (as lichess accepts another mate).
      const after = await api.call<PositionView>('GET', positionUrl(played));
      right = after.result === (current.puzzle.color === 'white' ? '1-0' : '0-1');
    }
    if (!right) { await finish(false); return; }
    if (played.length === current.puzzle.solution.length) { await finish(true); return; }
    status.textContent = t('puzzle.right');
    await draw();
    // The server's reply, a moment later.
    await new Promise(r => setTimeout(r, 300));
    played.push(current.puzzle.solution[played.length]);
    status.textContent = t('puzzle.yourTurn');
    await draw();
  }

  async function finish(win: boolean): Promise<void> {
    over = true;
    const p = current!;
    status.textContent = t(win ? 'puzzle.solved' : 'puzzle.failed');
    status.dataset.outcome = win ? 'solved' : 'failed';
    await draw();
    if (!win) {
      result.replaceChildren(h('p', { id: 'puzzle-solution' }, t('puzzle.solutionWas', { moves: p.puzzle.solution.join(' ') })));
      // Show the solution on the board.
      cg.set({ movable: { color: undefined } });
      const line = p.puzzle.solution;
      const whole = await api.call<PositionView>('GET', positionUrl(line));
      cg.set({ fen: boardFen(p.game.variant, whole.fen), lastMove: squares(line[line.length - 1], makhos()) });
    }
    if (streakMode) {
      await streakRound(win);
      if (win) {
        actions.replaceChildren(h('button', { class: 'primary', id: 'puzzle-continue', onclick: () => nextInStreak() }, t('puzzle.continue')));
      } else {
        result.append(h('p', { id: 'puzzle-streak-over' }, t('puzzle.streakOver', { score: streakScore })));
        actions.replaceChildren(h('button', { class: 'primary', id: 'puzzle-new-streak', onclick: () => startStreak() }, t('puzzle.newStreak')));
      }
      return;
    }
    try {
      const r = await api.call<RoundAnswer>('POST', `/api/puzzle/${p.puzzle.id}/round`, { win, moves: played });
      const rating = h('p', { id: 'puzzle-rating' });
      if (r.user && r.round.rated) rating.textContent = t('puzzle.yourRating', { rating: r.user.rating, diff: signed(r.user.ratingDiff) });
      else if (r.user) rating.textContent = t('puzzle.notRatedAgain', { rating: r.user.rating });
      else rating.textContent = t('puzzle.guestNotRated');
      result.prepend(rating);
    } catch (e) { err.textContent = (e as Error).message; }
    actions.replaceChildren(
      h('button', { id: 'puzzle-retry', onclick: () => show(p) }, t('puzzle.retry')),
      h('button', { class: 'primary', id: 'puzzle-next', onclick: () => loadNext(p.puzzle.id) }, t('puzzle.next')));
  }

  async function loadNext(exclude?: string): Promise<void> {
    const q = new URLSearchParams({ variant });
    if (theme) q.set('theme', theme);
    if (exclude) q.set('exclude', exclude);
    try { await show(await api.call<PuzzleAnswer>('GET', `/api/puzzle/next?${q.toString()}`)); } catch (e) { err.textContent = (e as Error).message; }
  }

  async function nextInStreak(): Promise<void> {
    if (streakAt >= streak.length) { status.textContent = t('puzzle.streakDone'); actions.replaceChildren(); return; }
    await show(await api.call<PuzzleAnswer>('GET', `/api/puzzle/${streak[streakAt++]}`));
  }

  async function startStreak(): Promise<void> {
    const q = new URLSearchParams({ variant });
    if (theme) q.set('theme', theme);
    try {
      const s = await api.call<StreakAnswer>('POST', `/api/puzzle/streak?${q.toString()}`);
      streak = s.puzzles; streakRun = s.run; serverBest = s.best;
      streakAt = 0; streakScore = 0;
      await nextInStreak();
    } catch (e) { err.textContent = (e as Error).message; }
  }

  const restart = () => (streakMode ? startStreak() : loadNext());
  variantSel.onchange = () => { variant = variantSel.value; void restart(); };
  themeSel.onchange = () => { theme = themeSel.value; void restart(); };
  modeSel.onchange = () => { streakMode = modeSel.value === 'streak'; void restart(); };
  window.addEventListener('notationchange', () => { cg.set({ notation: boardNotation() }); cg.redrawAll(); });

  try {
    if (streakMode) await startStreak();
    else if (id === 'daily') await show(await api.call<PuzzleAnswer>('GET', `/api/puzzle/daily?variant=${variant}`));
    else if (id) await show(await api.call<PuzzleAnswer>('GET', `/api/puzzle/${encodeURIComponent(id)}`));
    else await loadNext();
  } catch (e) { err.textContent = (e as Error).message; }
}

/** A theme's name as shown (its key when the interface has no name for it). */
function themeName(theme: string): string {
  return tMaybe(`puzzle.theme.${theme}`, theme);
}

/** The lobby's panel: the daily puzzle of each game, with a picture. */
export function dailyPuzzlePanel(): HTMLElement {
  const list = h('div', { class: 'row daily-puzzles', id: 'daily-puzzles' });
  const panel = h('div', { class: 'panel lobby-panel' }, h('h2', {}, t('puzzle.daily')), list,
    h('p', {}, h('a', { href: '/puzzle', id: 'lobby-puzzles' }, t('puzzle.more'))));
  void (async () => {
    for (const v of VARIANTS) {
      try {
        const a = await api.call<PuzzleAnswer>('GET', `/api/puzzle/daily?variant=${v}`);
        const q = new URLSearchParams({ variant: v, fen: a.puzzle.fen });
        if (a.puzzle.color === 'black') q.set('flip', '1');
        list.append(h('a', { href: `/puzzle/daily?variant=${v}`, class: 'daily-puzzle', 'data-variant': v },
          h('img', { src: `/api/picture.png?${q.toString()}`, alt: t('puzzle.dailyAlt', { game: variantName(v) }), width: '120', height: '120' }),
          h('span', {}, `${variantName(v)} · ${a.puzzle.rating}`)));
      } catch { /* no puzzle of this game on the server */ }
    }
  })();
  return panel;
}
