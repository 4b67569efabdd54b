// Interface text in English and Thai: `t(key, params)` looks a key up in the
// reader's language. One table per language, keys grouped by page
// (`top.`, `lobby.`, `game.`, ...); a new page adds its group to both tables
// (the Thai table's type makes a missing key a type error, and
// web/test/unit.mjs checks that both tables have the same keys and the same
// `{placeholders}`).

import { en, type Key } from './i18n/en';
import { th } from './i18n/th';

export type { Key };

export type Lang = 'en' | 'th';

/** Both string tables, for the consistency check (web/test/unit.mjs). */
export const TABLES: Record<Lang, Record<Key, string>> = { en, th };

const STORAGE_KEY = 'lang';

function detect(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'th') return saved;
  } catch { /* no storage (node, private mode) */ }
  const nav = typeof navigator !== 'undefined' ? navigator.language ?? '' : '';
  return nav.toLowerCase().startsWith('th') ? 'th' : 'en';
}

let current: Lang = detect();

/** The interface language. */
export function lang(): Lang { return current; }

/** Sets the interface language, remembers it, and updates `<html lang>`. The pages redraw themselves. */
export function setLang(l: Lang): void {
  current = l;
  try { localStorage.setItem(STORAGE_KEY, l); } catch { /* this page only */ }
  applyLang();
}

/** Writes the language into `<html lang>`. */
export function applyLang(): void {
  if (typeof document !== 'undefined') document.documentElement.lang = current;
}

/** The text of `key` in the interface language, with `{name}` placeholders filled from `params`. */
export function t(key: Key, params: Record<string, string | number> = {}): string {
  const text = TABLES[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Like `t`, for keys built at run time (a result's reason): the fallback when the table has no such key. */
export function tMaybe(key: string, fallback: string, params: Record<string, string | number> = {}): string {
  return key in en ? t(key as Key, params) : fallback;
}

/** A time for display in the interface language. */
export function dateText(ms: number): string {
  return new Date(ms).toLocaleString(current === 'th' ? 'th-TH' : undefined);
}
