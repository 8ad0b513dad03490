/**
 * The only way the inspector builds DOM. Children given as strings become text
 * nodes and attributes are set with `setAttribute`, so stored content is only
 * ever text: nothing here parses HTML, and event handlers can only be functions.
 */
import morphdom from 'morphdom';

export type Child = Node | string | number | null | undefined | false | Child[];

type Listener = (event: Event) => void;

export type Attrs = Record<string, string | number | boolean | undefined | null | Listener>;

/** Elements `h` gave an `on*` handler: `patch` must not keep an old copy of one (below). */
const listened = new WeakSet<Element>();

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
  } else if (child instanceof Node) {
    parent.appendChild(child);
  } else {
    parent.appendChild(document.createTextNode(String(child)));
  }
}

/**
 * `h('button', {class: 'primary', onclick: save, 'aria-label': 'Save'}, 'Save')`.
 * `on*` keys take functions only; `true` sets an empty attribute, `false`/`null`/`undefined` none.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (name.startsWith('on')) {
        if (typeof value !== 'function') throw new TypeError(`${name} must be a function`);
        el.addEventListener(name.slice(2), value);
        listened.add(el);
      } else if (typeof value === 'function') {
        throw new TypeError(`${name} must not be a function`);
      } else if (value === true) {
        el.setAttribute(name, '');
      } else if (value !== false && value !== null && value !== undefined) {
        el.setAttribute(name, String(value));
      }
    }
  }
  append(el, children);
  return el;
}

/** Replaces `parent`'s children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Makes `parent`'s children match `children` while keeping the nodes that stay: an element whose
 * `data-key` (or, unkeyed, whose tag at that place) matches is changed in place, not replaced. For
 * lists re-rendered on live changes: a click is a press and a release on one element, and a list
 * rebuilt between the two (`replace`) swallows it, so the user's pick is silently dropped.
 * A kept element keeps its own listeners, not the new one's: children with `on*` handlers are
 * refused (use `replace`).
 */
export function patch(parent: Element, ...children: Child[]): void {
  const next = parent.cloneNode(false) as Element;
  append(next, children);
  for (const el of next.querySelectorAll('*')) {
    if (listened.has(el)) throw new TypeError(`patch: a <${el.localName}> with an on* handler; use replace`);
  }
  morphdom(parent, next, { childrenOnly: true, getNodeKey: dataKey });
}

function dataKey(node: Node): string | undefined {
  return node instanceof Element ? (node.getAttribute('data-key') ?? undefined) : undefined;
}

/** Moves focus among `items` with the arrow, Home and End keys (a list of links or buttons). */
export function arrowKeys(container: HTMLElement, selector: string): void {
  container.addEventListener('keydown', (event) => {
    const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
    if (!keys.includes(event.key)) return;
    const items = [...container.querySelectorAll<HTMLElement>(selector)];
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    let next = at;
    if (event.key === 'ArrowDown') next = Math.min(items.length - 1, at + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (event.key === 'Home') next = 0;
    else next = items.length - 1;
    event.preventDefault();
    items[next]?.focus();
  });
}

/** Calls `run` at most once per `ms`, always once after the last request. */
export function throttle(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      last = Date.now();
      run();
    }, wait);
  };
}

/** Marks `zone` while files are dragged over it (when `accepting()`), and hands dropped files to `onFiles`. */
export function acceptFileDrops(zone: HTMLElement, accepting: () => boolean, onFiles: (files: File[]) => void): void {
  const hasFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') ?? false;
  zone.addEventListener('dragover', (event) => {
    if (!hasFiles(event) || !accepting()) return;
    event.preventDefault();
    zone.classList.add('drop-attach');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('drop-attach'));
  zone.addEventListener('drop', (event) => {
    zone.classList.remove('drop-attach');
    if (!hasFiles(event) || !accepting()) return;
    event.preventDefault();
    onFiles([...(event.dataTransfer?.files ?? [])]);
  });
}
