/** JSON values as colored text, one span per token; always text nodes, never markup. */
import { h } from './dom.js';

type Token = [text: string, kind: 'key' | 'string' | 'number' | 'literal' | 'punct'];

function tokens(value: unknown, indent: string | null, depth: number, out: Token[]): void {
  const nl = (d: number): string => (indent === null ? '' : `\n${indent.repeat(d)}`);
  if (value === null || typeof value === 'boolean') out.push([String(value), 'literal']);
  else if (typeof value === 'number') out.push([String(value), 'number']);
  else if (typeof value === 'string') out.push([JSON.stringify(value), 'string']);
  else if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(['[]', 'punct']);
    out.push(['[', 'punct']);
    value.forEach((item, i) => {
      out.push([nl(depth + 1), 'punct']);
      tokens(item, indent, depth + 1, out);
      if (i < value.length - 1) out.push([indent === null ? ', ' : ',', 'punct']);
    });
    out.push([`${nl(depth)}]`, 'punct']);
  } else if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return void out.push(['{}', 'punct']);
    out.push(['{', 'punct']);
    keys.forEach((key, i) => {
      out.push([nl(depth + 1), 'punct']);
      out.push([JSON.stringify(key), 'key']);
      out.push([': ', 'punct']);
      tokens((value as Record<string, unknown>)[key], indent, depth + 1, out);
      if (i < keys.length - 1) out.push([indent === null ? ', ' : ',', 'punct']);
    });
    out.push([`${nl(depth)}}`, 'punct']);
  } else out.push([String(value), 'literal']);
}

function render(list: Token[], max: number): Node[] {
  const nodes: Node[] = [];
  let used = 0;
  for (const [text, kind] of list) {
    if (used + text.length > max) {
      nodes.push(h('span', { class: `j-${kind}` }, `${text.slice(0, Math.max(0, max - used - 1))}…`));
      break;
    }
    used += text.length;
    nodes.push(kind === 'punct' ? document.createTextNode(text) : h('span', { class: `j-${kind}` }, text));
  }
  return nodes;
}

/** One line, cut at `max` characters; the whole value is in the tooltip. */
export function jsonInline(value: unknown, max = 120): HTMLElement {
  const list: Token[] = [];
  tokens(value, null, 0, list);
  return h('span', { class: 'json json-inline', title: JSON.stringify(value) }, render(list, max));
}

/** Pretty-printed, two-space indent. */
export function jsonBlock(value: unknown): HTMLElement {
  const list: Token[] = [];
  tokens(value, '  ', 0, list);
  return h('pre', { class: 'json json-block' }, render(list, Number.POSITIVE_INFINITY));
}
