/**
 * A collapsible JSON tree: objects and arrays are disclosure widgets with a
 * copy button, times (epoch ms) are shown as dates beside the number. Every key
 * and value is a text node: nothing is parsed as HTML, and `__proto__` is a key
 * like any other (entries are read with `Object.keys`).
 */
import { type ComponentChildren, h } from 'preact';
import { useState } from 'preact/hooks';
import { humanTime, isEpochMs } from './format.js';

/** Copies `text`, then says so on the button for a moment. */
export function CopyButton(props: { text: () => string; label: string }) {
  const [done, setDone] = useState<'' | 'Copied' | 'Copy failed'>('');
  const copy = () => {
    navigator.clipboard.writeText(props.text()).then(
      () => setDone('Copied'),
      () => setDone('Copy failed'),
    );
    setTimeout(() => setDone(''), 1500);
  };
  return h('button', { type: 'button', class: 'copy', 'aria-label': props.label, onClick: copy }, done || 'Copy');
}

function Leaf(props: { value: unknown }) {
  const { value } = props;
  if (typeof value === 'string') return h('span', { class: 'j-str' }, JSON.stringify(value));
  if (isEpochMs(value))
    return h('span', { class: 'j-num' }, String(value), h('span', { class: 'j-time' }, ` ${humanTime(value)}`));
  return h('span', { class: value === null ? 'j-null' : 'j-num' }, String(value));
}

function Node(props: { name: string | undefined; value: unknown; depth: number }): ComponentChildren {
  const { name, value, depth } = props;
  const key = name === undefined ? null : h('span', { class: 'j-key' }, `${name}: `);
  if (value === null || typeof value !== 'object') return h('li', null, key, h(Leaf, { value }));
  const isArray = Array.isArray(value);
  const keys = Object.keys(value);
  const brief = isArray ? `[${keys.length}]` : `{${keys.length}}`;
  return h(
    'li',
    null,
    h(
      'details',
      { open: depth < 2 },
      h('summary', null, key, h('span', { class: 'j-brief' }, brief)),
      h(CopyButton, { text: () => JSON.stringify(value, null, 2), label: `Copy ${name ?? 'value'} as JSON` }),
      h(
        'ul',
        { class: 'j-list' },
        keys.map((k) => h(Node, { key: k, name: k, value: (value as Record<string, unknown>)[k], depth: depth + 1 })),
      ),
    ),
  );
}

/** `value` as a tree, its first two levels open. */
export function JsonTree(props: { value: unknown; label: string }) {
  return h(
    'ul',
    { class: 'j-tree', 'aria-label': props.label },
    h(Node, { name: undefined, value: props.value, depth: 0 }),
  );
}
