// Accessibility: axe-core (the npm package) run inside a page; a serious or
// critical finding fails the step that asked, naming the rule and the elements.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from './lib.mjs';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical findings of axe on `page` as it is now, as lines of text. */
export async function axeFindings(page) {
  // page.evaluate is not bound by the page's Content-Security-Policy (an injected <script> would be).
  await page.evaluate(source);
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map(v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ')) })));
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id} (${v.help}): ${v.nodes.join(', ')}`);
}

/** Fails when axe finds anything serious or critical on `page`. */
export async function expectAccessible(page, what) {
  const found = await axeFindings(page);
  expect(found.length === 0, `axe on ${what}:\n  ${found.join('\n  ')}`);
}
