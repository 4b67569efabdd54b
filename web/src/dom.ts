// A tiny element builder shared by the pages.

export type Attrs = Record<string, string | boolean | ((ev: any) => void)>;

/** Creates an element with attributes (functions become event listeners) and children. */
export function h(tag: string, attrs: Attrs = {}, ...children: (Node | string | null | undefined | false)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), busyWhileRunning(el, v));
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false) el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * Wraps an event handler: when it returns a promise (it sent a request), the
 * button pressed, or the submit buttons of the form submitted, are disabled
 * until the promise settles, so that a double click sends one request.
 */
function busyWhileRunning(el: HTMLElement, handler: (ev: any) => unknown): (ev: any) => void {
  return (ev: any) => {
    if (el.getAttribute('aria-busy') === 'true') { ev.preventDefault?.(); return; }
    const result = handler(ev);
    if (!(result instanceof Promise)) return;
    const buttons: (HTMLButtonElement | HTMLInputElement)[] = el instanceof HTMLFormElement
      ? [...el.querySelectorAll<HTMLButtonElement | HTMLInputElement>('button:not([type=button]), input[type=submit]')]
      : el instanceof HTMLButtonElement ? [el] : [];
    const was = buttons.map(b => b.disabled);
    buttons.forEach(b => { b.disabled = true; });
    el.setAttribute('aria-busy', 'true');
    result.finally(() => {
      buttons.forEach((b, i) => { b.disabled = was[i]; });
      el.removeAttribute('aria-busy');
    }).catch(() => {});
  };
}
