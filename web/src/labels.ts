// How games are described in the interface language: the game's name, a
// colour, the reason of a result and the time control. Shared by the lobby,
// my games and the game page.
import { t, tMaybe } from './i18n';

/** The name of a game (variant) in the interface language. */
export const variantName = (v: string): string => tMaybe(`variant.${v}`, v);
/** A colour (`white`/`black`) in the interface language. */
export const colorName = (c: string): string => (c === 'white' ? t('common.whiteLower') : c === 'black' ? t('common.blackLower') : c);
/** A result's reason in the interface language. */
export const reasonText = (r: string | null): string => (r ? tMaybe(`reason.${r}`, r) : '');

/** A time control: `10+5` (live, minutes + seconds), days per move, or unlimited. */
export function describeTc(kind: string, initial: number, inc: number): string {
  if (kind === 'live') return `${+(initial / 60000).toFixed(2)}+${inc / 1000}`;
  if (kind === 'correspondence') return t('tc.days', { days: +(initial / 86400000).toFixed(2), inc: +(inc / 86400000).toFixed(2) });
  return t('tc.unlimited');
}
