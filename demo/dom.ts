/**
 * The only way the demo builds DOM. Children given as strings become text
 * nodes and attributes are set with `setAttribute`, so stored content is only
 * ever text: nothing here parses HTML, and event handlers can only be functions.
 */
export type Child = Node | string | number | null | undefined | false | Child[];

type Listener = (event: Event) => void;

export type Attrs = Record<string, string | number | boolean | undefined | null | Listener>;

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
