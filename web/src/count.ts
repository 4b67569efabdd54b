// A running Makruk count in words. The server says the count as players say
// it aloud (`spoken` of `spoken_limit`, from games::spoken_count, the one
// place that converts the rules' plies); the plies go in a tooltip.
import { t } from './i18n';

/** What a count's words need (the game's count, or the tables' answer's). */
export interface SpokenCount { spoken: number; spoken_limit: number; ply: number; limit: number }

/** "count 6 of 8" (Thai "นับ 6 จาก 8"). */
export function spokenText(c: SpokenCount): string {
  return t('count.spoken', { count: c.spoken, limit: c.spoken_limit });
}

/** "10 of 16 plies (both sides' moves)", for a tooltip. */
export function pliesText(c: SpokenCount): string {
  return t('count.plies', { ply: c.ply, limit: c.limit });
}
