// The settings page (/settings): board colours and pieces, coordinates,
// animation, premoves, move confirmation, sound volume, notation and
// language. Each change is applied at once and kept (in the browser, and
// with the account when there is one).
import * as api from './api';
import { h } from './dom';
import { t } from './i18n';
import { MOVE_NOTATIONS, type MoveNotation } from './notation';
import { play } from './sounds';
import { BOARD_THEMES, type ConfirmMoves, PIECE_SETS, type Settings, saveSettings, settings } from './settings';

export function settingsPage(root: HTMLElement): void {
  const s = settings();
  const msg = h('span', { class: 'muted', id: 'settings-saved' });
  const err = h('div', { class: 'error', id: 'settings-error' });
  const save = async (change: Partial<Settings>) => {
    err.textContent = '';
    msg.textContent = '';
    try {
      const langBefore = settings().language;
      await saveSettings(change);
      msg.textContent = api.me?.guest ? t('settings.savedBrowser') : t('settings.savedAccount');
      if (settings().language !== langBefore) location.reload();
    } catch (e) { err.textContent = (e as Error).message; }
  };
  const select = <T extends string>(id: string, value: T, options: [T, string][], onChange: (v: T) => void) => {
    const el = h('select', { id, onchange: (ev: Event) => onChange((ev.target as HTMLSelectElement).value as T) },
      ...options.map(([v, label]) => h('option', { value: v }, label))) as HTMLSelectElement;
    el.value = value;
    return el;
  };
  const check = (id: string, value: boolean, onChange: (v: boolean) => void) => {
    const el = h('input', { type: 'checkbox', id, onchange: (ev: Event) => onChange((ev.target as HTMLInputElement).checked) }) as HTMLInputElement;
    el.checked = value;
    return el;
  };
  const row = (label: string, control: HTMLElement, help?: string) =>
    h('div', { class: 'setting' }, h('label', { for: control.id }, label), control, help ? h('div', { class: 'muted' }, help) : null);
  const volume = h('input', { type: 'range', id: 'set-volume', min: '0', max: '100', step: '5', value: String(s.volume),
    onchange: async (ev: Event) => { await save({ volume: Number((ev.target as HTMLInputElement).value) }); play('move'); } }) as HTMLInputElement;

  root.replaceChildren(h('div', { class: 'panel settings-page', id: 'settings' },
    h('h2', {}, t('settings.title')),
    api.me?.guest ? h('p', { class: 'muted' }, t('settings.guestNote')) : null,
    h('h3', {}, t('settings.board')),
    row(t('settings.boardTheme'), select('set-theme', s.boardTheme, BOARD_THEMES.map(v => [v, t(`settings.theme.${v}`)]), v => save({ boardTheme: v }))),
    row(t('settings.pieceSet'), select('set-pieces', s.pieceSet, PIECE_SETS.map(v => [v, t(`settings.pieces.${v}`)]), v => save({ pieceSet: v }))),
    row(t('settings.coordinates'), check('set-coords', s.coordinates, v => save({ coordinates: v }))),
    row(t('settings.animation'), select('set-animation', String(s.animationMs) as '0' | '120' | '200' | '400',
      [['0', t('settings.animNone')], ['120', t('settings.animFast')], ['200', t('settings.animNormal')], ['400', t('settings.animSlow')]],
      v => save({ animationMs: Number(v) }))),
    h('h3', {}, t('settings.playing')),
    row(t('settings.premoves'), check('set-premoves', s.premoves, v => save({ premoves: v })), t('settings.premovesHelp')),
    row(t('settings.confirmMoves'), select('set-confirm', s.confirmMoves,
      [['never', t('settings.confirmNever')], ['correspondence', t('settings.confirmCorrespondence')], ['always', t('settings.confirmAlways')]] as [ConfirmMoves, string][],
      v => save({ confirmMoves: v }))),
    row(t('settings.sounds'), check('set-sounds', s.sounds, v => save({ sounds: v }))),
    row(t('settings.volume'), volume, t('settings.volumeHelp')),
    h('h3', {}, t('settings.language')),
    row(t('settings.notation'), select('set-notation', s.notation, MOVE_NOTATIONS.map(n => [n, t(`top.notation.${n}`)] as [MoveNotation, string]), v => save({ notation: v }))),
    row(t('settings.languageLabel'), select('set-language', s.language, [['en', 'English'], ['th', 'ไทย']], v => save({ language: v }))),
    h('p', {}, msg), err));
}
