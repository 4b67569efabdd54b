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
 * button pressed, or the submit buttons of the form submitted, take no
 * clicks (`inert`, shown busy) until the promise settles, and the element
 * ignores its events meanwhile, so that a double click sends one request.
 * (`inert` rather than `disabled`: a handler may disable its button for good.)
 */
function busyWhileRunning(el: HTMLElement, handler: (ev: any) => unknown): (ev: any) => void {
  return (ev: any) => {
    if (el.getAttribute('aria-busy') === 'true') { ev.preventDefault?.(); return; }
    const result = handler(ev);
    if (!(result instanceof Promise)) return;
    const buttons: HTMLElement[] = el instanceof HTMLFormElement
      ? [...el.querySelectorAll<HTMLElement>('button:not([type=button]), input[type=submit]')]
      : el instanceof HTMLButtonElement ? [el] : [];
    const busy = [el, ...buttons.filter(b => b !== el)];
    buttons.forEach(b => { b.inert = true; });
    busy.forEach(b => b.setAttribute('aria-busy', 'true'));
    result.finally(() => {
      buttons.forEach(b => { b.inert = false; });
      busy.forEach(b => b.removeAttribute('aria-busy'));
    }).catch(() => {});
  };
}
