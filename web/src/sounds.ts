// The game's sounds, made here with the Web Audio API (no sound files of
// anyone else's): a move, a capture, a check, the game's end and low time.
// Sounds on or off (a mute) and the volume are settings.
import { settings } from './settings';

export type Sound = 'move' | 'capture' | 'check' | 'end' | 'lowTime';

let audio: AudioContext | null = null;
/** The sounds played so far, newest last (the browser tests read it). */
export const played: Sound[] = [];

/** One tone: frequency (Hz), start offset and length (s), loudness (0–1), wave. */
type Tone = [number, number, number, number, OscillatorType];

const TONES: Record<Sound, Tone[]> = {
  // A short wooden knock.
  move: [[520, 0, 0.06, 0.6, 'triangle']],
  // A lower, fuller knock.
  capture: [[300, 0, 0.09, 0.8, 'triangle'], [150, 0, 0.12, 0.5, 'sine']],
  // Two rising notes.
  check: [[660, 0, 0.08, 0.5, 'square'], [880, 0.09, 0.1, 0.5, 'square']],
  // Three notes falling to rest.
  end: [[784, 0, 0.15, 0.5, 'sine'], [659, 0.16, 0.15, 0.5, 'sine'], [523, 0.32, 0.3, 0.5, 'sine']],
  // A high beep.
  lowTime: [[1200, 0, 0.07, 0.4, 'sine']],
};

/** Plays `sound` at the set volume (nothing when it is 0 or the browser has no audio). */
export function play(sound: Sound): void {
  played.push(sound);
  const volume = settings().sounds ? settings().volume / 100 : 0;
  if (volume <= 0) return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [freq, at, length, loud, wave] of TONES[sound]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0, now + at);
      gain.gain.linearRampToValueAtTime(loud * volume, now + at + 0.005);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
  } catch { /* no audio here */ }
}

/** The sound of a move given its SAN (Makruk) or text (Mak-hot). */
export function moveSound(san: string): Sound {
  if (/[+#]$/.test(san)) return 'check';
  return san.includes('x') ? 'capture' : 'move';
}
