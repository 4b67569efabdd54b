// Builds the web board into the folder given as the first argument (default: dist).
// Used by crates/server/build.rs; runs on a fresh clone after `npm ci`.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shapes, makhos, svg } from './pieces.mjs';

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
for (const color of ['white', 'black']) {
  for (const [role, body] of Object.entries(shapes)) {
    writeFileSync(join(out, 'assets', 'pieces', `${color}-${role.replace('~', 'p')}.svg`), svg(body, color));
  }
  for (const [role, body] of Object.entries(makhos)) {
    writeFileSync(join(out, 'assets', 'pieces', `${color}-makhos-${role}.svg`), svg(body, color));
  }
}
