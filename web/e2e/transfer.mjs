// Measures the bytes a first visit transfers (headers and bodies as sent, so
// compressed where the server compressed): the lobby, then a game page, each
// in a fresh browser with an empty cache.
//
//   THAIBOARD_BIN=target/debug/thaiboard node e2e/transfer.mjs   (starts its own server)
//   BASE_URL=http://127.0.0.1:8080 node e2e/transfer.mjs
import { browser, cleanup, env, post, startServer } from './lib.mjs';

async function firstVisit(name, path) {
  const page = await browser(name);
  const rows = [];
  page.on('requestfinished', async req => {
    const s = await req.sizes().catch(() => null);
    if (s) rows.push({ url: req.url().replace(env.base, ''), bytes: s.responseHeadersSize + s.responseBodySize, body: s.responseBodySize });
  });
  await page.goto(env.base + path, { waitUntil: 'load' });
  await page.waitForTimeout(2000);
  return rows;
}

async function main() {
  if (!env.base) env.base = await startServer();
  // A game to visit: a guest's game against the computer.
  const maker = await browser('maker');
  await maker.goto(env.base + '/');
  const id = (await post(maker, '/api/engine-games', { variant: 'makruk', level: 1, color: 'white' }))[1]?.id;
  if (!id) throw new Error('no game was made');
  for (const [name, path] of [['lobby', '/'], ['game', `/game/${id}`]]) {
    const rows = await firstVisit(`transfer-${name}`, path);
    const total = rows.reduce((a, r) => a + r.bytes, 0);
    console.log(`${name} (${path}): ${rows.length} requests, ${total} bytes transferred`);
    for (const r of rows.sort((a, b) => b.bytes - a.bytes).slice(0, 5)) console.log(`  ${String(r.bytes).padStart(8)}  ${r.url}`);
  }
}

try { await main(); }
finally {
  env.server?.kill();
  for (const f of cleanup.reverse()) await Promise.resolve().then(f).catch(() => {});
}
