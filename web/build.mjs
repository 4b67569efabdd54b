// Builds the web board into the folder given as the first argument (default: dist).
// Used by crates/server/build.rs; runs on a fresh clone after `npm ci`.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2] || 'dist';
mkdirSync(join(out, 'assets', 'pieces'), { recursive: true });
await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  outfile: join(out, 'assets', 'app.js'),
  logLevel: 'warning',
});
cpSync('static/index.html', join(out, 'index.html'));
for (const f of readdirSync('static')) {
  if (f !== 'index.html') cpSync(join('static', f), join(out, 'assets', f), { recursive: true });
}
cpSync('node_modules/chessgroundx/assets/chessground.base.css', join(out, 'assets', 'chessground.base.css'));
// Our piece images (also drawn into GIF/PNG exports by crates/render).
cpSync('pieces', join(out, 'assets', 'pieces'), { recursive: true });
