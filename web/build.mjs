// Builds the web board into the folder given as the first argument (default: dist).
// Used by crates/server/build.rs; runs on a fresh clone after `npm ci`.
//
// The script and the two style sheets are also written under content-hashed
// names (`app.<hash>.js`), which index.html links and the server answers with
// immutable caching; style.css keeps its plain name for pages outside the app (mail).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2] || 'dist';
const assets = join(out, 'assets');
mkdirSync(join(assets, 'pieces'), { recursive: true });
await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  outfile: join(assets, 'app.js'),
  logLevel: 'warning',
});
for (const f of readdirSync('static')) {
  if (f !== 'index.html') cpSync(join('static', f), join(assets, f), { recursive: true });
}
cpSync('node_modules/chessgroundx/assets/chessground.base.css', join(assets, 'chessground.base.css'));
// Our piece images (also drawn into GIF/PNG exports by crates/render).
cpSync('pieces', join(assets, 'pieces'), { recursive: true });

/** Copies assets/NAME to assets/BASE.<12 hex of its SHA-256>.EXT (keeping the plain name
 * only when `keep`) and returns the new name. */
function hashed(name, keep) {
  const bytes = readFileSync(join(assets, name));
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const dot = name.lastIndexOf('.');
  const named = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
  writeFileSync(join(assets, named), bytes);
  if (!keep) rmSync(join(assets, name));
  return named;
}
let html = readFileSync('static/index.html', 'utf8');
// style.css keeps its plain name too: the mails' pages link it (crates/server/src/social/mail/model.rs).
for (const [name, keep] of [['app.js', false], ['style.css', true], ['chessground.base.css', false]]) {
  const link = `/assets/${name}"`;
  if (!html.includes(link)) throw new Error(`static/index.html does not link ${link}`);
  html = html.replace(link, `/assets/${hashed(name, keep)}"`);
}
writeFileSync(join(out, 'index.html'), html);
