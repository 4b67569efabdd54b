// How games are described in the interface language: the game's name, a
// colour, the reason of a result and the time control. Shared by the lobby,
// my games and the game page.
import type { ShownRating } from './api-types';
import { t, tMaybe } from './i18n';

/** The name of a game (variant) in the interface language. */
export const variantName = (v: string): string => tMaybe(`variant.${v}`, v);
/** A colour (`white`/`black`) in the interface language. */
export const colorName = (c: string): string => (c === 'white' ? t('common.whiteLower') : c === 'black' ? t('common.blackLower') : c);
/** A result's reason in the interface language. */
export const reasonText = (r: string | null): string => (r ? tMaybe(`reason.${r}`, r) : '');

/** The speeds of rating pools, fastest first. */
export const SPEEDS = ['ultra_bullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'];
/** A rating pool (`makruk/blitz`, `makhos:no-reverse/correspondence`) in the interface language. */
export function poolName(key: string): string {
  const [game, speed] = key.split('/');
  const [variant, rules] = game.split(':');
  return `${variantName(variant)}${rules ? ` (${rules})` : ''} · ${tMaybe(`speed.${speed}`, speed)}`;
}
/** A player's page. */
export const playerHref = (name: string): string => `/@/${encodeURIComponent(name)}`;

/** A rating as shown: `1500?` while provisional, `1623` after. */
export const ratingText = (r: ShownRating | null | undefined): string => (r ? `${r.rating}${r.provisional ? '?' : ''}` : '');
/** A rating change: `+12`, `−8`, `±0`. */
export const diffText = (d: number): string => (d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0');
/** A player's name with the rating, if any: `somchai (1500?)`. */
export const nameWithRating = (name: string, r: ShownRating | null | undefined): string => (r ? `${name} (${ratingText(r)})` : name);

/** A time control: `10+5` (live, minutes + seconds), days per move, or unlimited. */
export function describeTc(kind: string, initial: number, inc: number): string {
  if (kind === 'live') return `${+(initial / 60000).toFixed(2)}+${inc / 1000}`;
  if (kind === 'correspondence') return t('tc.days', { days: +(initial / 86400000).toFixed(2), inc: +(inc / 86400000).toFixed(2) });
  return t('tc.unlimited');
}

/** A day as the page shows it (the player's zone). */
export function dayText(ms: number, zone?: string): string {
  try { return new Date(ms).toLocaleDateString(undefined, { timeZone: zone, year: 'numeric', month: 'short', day: 'numeric' }); } catch { return new Date(ms).toLocaleDateString(); }
}

/** A calendar day written `YYYY-MM-DD` as the page shows days (no time zone moves it). */
function calendarDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return dayText(Date.UTC(y, m - 1, d, 12), 'UTC');
}

/** A period of leave, the one form every page shows: its first and last days, both included, and how many. */
export function leaveRange(first: string, last: string, days: number): string {
  const range = first === last ? calendarDay(first) : `${calendarDay(first)} – ${calendarDay(last)}`;
  return `${range} (${t('leave.days', { n: days })})`;
}

/** The name a screen reader says for the form field `name`. */
export function fieldLabel(name: string): string {
  const keys: Record<string, string> = {
    variant: 'label.variant', rules: 'label.rules', color: 'label.color', tc: 'label.tc', kind: 'label.kind', level: 'label.level',
    minutes: 'label.minutes', increment: 'label.increment', days: 'label.days', increment_days: 'label.incDays', max_days: 'label.maxDays',
    result: 'label.result', rated: 'label.rated', from: 'label.from', to: 'label.to', leave: 'label.leave', rounds: 'label.rounds',
    duration_minutes: 'label.duration', max_players: 'label.maxPlayers',
  };
  return keys[name] ? tMaybe(keys[name], name) : name;
}
