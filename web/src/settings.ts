// The player's settings for the board and the game page: kept in the
// browser for everyone, and with the account for players who have one
// (GET/PUT /api/account/settings, checked by the server). The language and
// the notation live in their own modules (i18n.ts, notation.ts); this one
// reads and writes them with the rest.
import * as api from './api';
import { lang, setLang } from './i18n';
import { type MoveNotation, moveNotation, setMoveNotation } from './notation';

export type ConfirmMoves = 'never' | 'correspondence' | 'always';

export interface Settings {
  boardTheme: 'wood' | 'green' | 'blue' | 'grey';
  pieceSet: 'thaiboard' | 'carved';
  coordinates: boolean;
  /** Piece animation, ms (0: none). */
  animationMs: number;
  premoves: boolean;
  confirmMoves: ConfirmMoves;
  /** Sounds on (off: muted). */
  sounds: boolean;
  /** 0 (silent) to 100. */
  volume: number;
  notation: MoveNotation;
  language: 'en' | 'th';
  /** An IANA time zone name: leave days are counted in it. */
  timeZone: string;
}

export const BOARD_THEMES: Settings['boardTheme'][] = ['wood', 'green', 'blue', 'grey'];
export const PIECE_SETS: Settings['pieceSet'][] = ['thaiboard', 'carved'];

const KEY = 'thaiboard.settings';

const DEFAULTS: Settings = {
  boardTheme: 'wood', pieceSet: 'thaiboard', coordinates: true, animationMs: 200, premoves: true,
  confirmMoves: 'correspondence', sounds: true, volume: 70, notation: 'standard', language: 'en',
  timeZone: 'UTC',
};

let current: Settings = { ...DEFAULTS, ...stored(), language: lang(), notation: moveNotation() };

function stored(): Partial<Settings> {
  try { return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Settings>; } catch { return {}; }
}

/** The settings now. */
export function settings(): Settings { return current; }

/** Applies `s` to the page: language, notation and the board's looks (classes on <body>). */
function apply(s: Settings): void {
  if (s.language !== lang()) setLang(s.language);
  if (s.notation !== moveNotation()) setMoveNotation(s.notation);
  if (typeof document !== 'undefined') {
    const body = document.body;
    for (const th of BOARD_THEMES) body.classList.toggle(`theme-${th}`, th === s.boardTheme);
    for (const p of PIECE_SETS) body.classList.toggle(`pieces-${p}`, p === s.pieceSet);
    body.classList.toggle('no-coords', !s.coordinates);
  }
}

/** For a player with an account, takes the settings kept with it (call once, after the session is known). */
export async function loadSettings(): Promise<void> {
  if (api.me && !api.me.guest) {
    try { current = { ...DEFAULTS, ...(await api.call<Settings>('GET', '/api/account/settings')) }; } catch { /* keep the browser's */ }
  }
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch { /* this page only */ }
  apply(current);
}

/** Changes some settings: applied at once, kept in the browser and with the account. */
export async function saveSettings(change: Partial<Settings>): Promise<Settings> {
  const next = { ...current, ...change };
  if (api.me && !api.me.guest) next.language = (await api.call<Settings>('PUT', '/api/account/settings', next)).language;
  current = next;
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch { /* this page only */ }
  apply(current);
  window.dispatchEvent(new Event('settingschange'));
  return current;
}

/** Whether a move in a game of this time control waits for a confirmation. */
export function confirmsMoves(tcKind: string): boolean {
  return current.confirmMoves === 'always' || (current.confirmMoves === 'correspondence' && tcKind === 'correspondence');
}
