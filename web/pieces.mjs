// thaiboard's own piece images, drawn here as SVG (viewBox 100x100) and
// written for both colours by build.mjs.

const base = '<ellipse cx="50" cy="86" rx="30" ry="8"/><rect x="24" y="76" width="52" height="10" rx="4"/>';

export const shapes = {
  // Khun (king): a robed figure with a tall crown.
  k: base + '<path d="M30 77 L36 44 L64 44 L70 77 Z"/><path d="M36 44 L40 30 L46 38 L50 18 L54 38 L60 30 L64 44 Z"/><circle cx="50" cy="14" r="5"/>',
  // Met (adviser): a squat body with a pointed cap.
  m: base + '<path d="M32 77 L38 50 L62 50 L68 77 Z"/><path d="M38 50 Q50 24 62 50 Z"/><circle cx="50" cy="30" r="4"/>',
  // Met from a promoted bia: the same, marked with a ring.
  'm~': base + '<path d="M32 77 L38 50 L62 50 L68 77 Z"/><path d="M38 50 Q50 24 62 50 Z"/><circle cx="50" cy="30" r="4"/><circle cx="50" cy="64" r="6" fill="none" stroke-width="3"/>',
  // Khon (nobleman): a tiered pagoda roof.
  s: base + '<path d="M30 77 L70 77 L62 62 L38 62 Z"/><path d="M36 62 L64 62 L58 48 L42 48 Z"/><path d="M41 48 L59 48 L54 34 L46 34 Z"/><path d="M46 34 L50 14 L54 34 Z"/>',
  // Ma (horse): a horse's head and neck.
  n: base + '<path d="M30 77 L34 56 Q30 44 38 32 L44 22 L48 30 Q60 24 70 38 L72 48 L62 50 L56 46 L58 60 L66 77 Z"/><circle cx="52" cy="36" r="3" class="eye"/>',
  // Ruea (boat): a hull with a cabin and mast.
  r: base + '<path d="M22 62 L78 62 L68 77 L32 77 Z"/><rect x="36" y="44" width="28" height="18" rx="2"/><rect x="47" y="20" width="6" height="24"/><path d="M53 22 L70 30 L53 38 Z"/>',
  // Bia (cowrie shell).
  p: '<ellipse cx="50" cy="62" rx="22" ry="26"/><path d="M50 40 Q44 62 50 84" fill="none" stroke-width="3"/>',
};

export const makhos = {
  // Mak-hot man: a disc with an inner ring.
  man: '<circle cx="50" cy="50" r="38"/><circle cx="50" cy="50" r="24" fill="none" stroke-width="3"/>',
  // Mak-hot king (hot): a disc with a crown.
  king: '<circle cx="50" cy="50" r="38"/><path d="M30 62 L30 40 L40 50 L50 32 L60 50 L70 40 L70 62 Z" fill="none" stroke-width="4"/>',
};

export function svg(body, color) {
  const [fill, stroke] = color === 'white' ? ['#f7f1e3', '#3a2a1a'] : ['#2b2220', '#e9dcc0'];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g fill="${fill}" stroke="${stroke}" stroke-width="2.5" stroke-linejoin="round">${body}</g></svg>`;
}
