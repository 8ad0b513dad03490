/**
 * The views' stylesheet (adopted by the shadow root as a constructed sheet).
 * Layout follows the panel's own width (container queries), not the window's:
 * a panel docked to one side is narrow on a wide screen. Three columns when
 * wide, two, then one stacked column on a phone.
 */
export const INSPECTOR_CSS = `
:host {
  --bg: #ffffff; --bg2: #f3f4f6; --fg: #111827; --muted: #4b5563; --line: #d1d5db;
  --accent: #1d4ed8; --accent-fg: #ffffff; --sel: #dbeafe; --add: #166534; --del: #991b1b; --warn: #92400e;
  color-scheme: light;
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg);
}
:host([data-theme="dark"]) {
  --bg: #111827; --bg2: #1f2937; --fg: #f9fafb; --muted: #d1d5db; --line: #4b5563;
  --accent: #93c5fd; --accent-fg: #111827; --sel: #1e3a8a; --add: #86efac; --del: #fca5a5; --warn: #fcd34d;
  color-scheme: dark;
}
@media (prefers-color-scheme: dark) {
  :host([data-theme="auto"]) {
    --bg: #111827; --bg2: #1f2937; --fg: #f9fafb; --muted: #d1d5db; --line: #4b5563;
    --accent: #93c5fd; --accent-fg: #111827; --sel: #1e3a8a; --add: #86efac; --del: #fca5a5; --warn: #fcd34d;
    color-scheme: dark;
  }
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
/* Where the open panel sits (the host's sheet, in the page bundle, only hides it until then). */
:host([data-open]) .panel { display: flex; flex-direction: column; overflow: hidden; position: fixed; z-index: 2147483646; inset: 0; }
:host([data-position="bottom"]) .panel { top: auto; height: min(60vh, 640px); }
:host([data-position="right"]) .panel { left: auto; width: min(100%, 720px); }
:host([data-position="left"]) .panel { right: auto; width: min(100%, 720px); }
:host([data-embedded]) { display: block; height: 100%; }
:host([data-embedded]) .panel { position: relative; height: 100%; border: 0; }
.panel { background: var(--bg); color: var(--fg); border: 1px solid var(--line); }
.inspector { container-type: inline-size; display: flex; flex-direction: column; height: 100%; min-height: 0; background: var(--bg); color: var(--fg); }
button, input, select { font: inherit; color: inherit; }
button { background: var(--bg2); border: 1px solid var(--line); border-radius: 4px; padding: 3px 8px; cursor: pointer; }
button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible, .scroller:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
input, select { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 2px 4px; min-width: 0; max-width: 100%; }
h2, h3, h4 { margin: 0; font-size: 13px; }
h3 { margin: 4px 0; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.muted { color: var(--muted); }
.mono, .j-tree, .ev-n, .ev-time { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; padding: 6px 8px; border-bottom: 1px solid var(--line); background: var(--bg2); }
.bar > h2 { font-size: 14px; }
.pickers, .inline-form, .filters { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; min-width: 0; }
.pickers label, .inline-form label, .filters label { display: inline-flex; align-items: center; gap: 4px; min-width: 0; }
.pickers label { max-width: 100%; }
.pickers select { width: 22ch; max-width: 100%; }
.close { margin-left: auto; }
.danger { border-color: var(--del); color: var(--del); font-weight: 600; }
.main { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(0, 1.3fr) minmax(0, 1fr) minmax(0, 0.9fr); }
.col { min-width: 0; min-height: 0; overflow: auto; padding: 6px 8px; border-right: 1px solid var(--line); }
.col:last-child { border-right: 0; }
.events { display: flex; flex-direction: column; gap: 4px; overflow: hidden; }
.col-head, .json-head { display: flex; align-items: center; gap: 8px; justify-content: space-between; }
.kinds { display: flex; flex-wrap: wrap; gap: 2px 8px; border: 0; padding: 0; margin: 0; }
.kinds legend { float: left; margin-right: 6px; padding: 0; }
.scroller { flex: 1; min-height: 120px; overflow: auto; position: relative; border: 1px solid var(--line); border-radius: 4px; }
.rows { position: relative; list-style: none; margin: 0; padding: 0; }
.rows > li { position: absolute; left: 0; right: 0; top: 0; height: 28px; display: flex; align-items: center; overflow: hidden; }
.inv { gap: 8px; padding: 0 6px; background: var(--bg2); font-weight: 600; justify-content: space-between; }
.inv-id { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.inv-meta { white-space: nowrap; font-weight: 400; color: var(--muted); }
.ev { all: unset; box-sizing: border-box; cursor: pointer; display: flex; align-items: center; gap: 6px; width: 100%; height: 28px; padding: 0 6px; white-space: nowrap; overflow: hidden; }
.ev:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
.ev[aria-pressed="true"] { background: var(--sel); }
.ev-n, .ev-time { color: var(--muted); flex: none; }
.ev-author { font-weight: 600; flex: none; max-width: 12ch; overflow: hidden; text-overflow: ellipsis; }
.ev-text { overflow: hidden; text-overflow: ellipsis; min-width: 0; flex-shrink: 9999; }
.tag { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; font-size: 11px; border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; }
.tag-error { color: var(--del); border-color: var(--del); }
.tag-confirmation { color: var(--warn); border-color: var(--warn); }
.ev.rewound .ev-author, .ev.rewound .ev-text { text-decoration: line-through; }
.drafts { flex: none; max-height: 30%; overflow: auto; border-top: 1px solid var(--line); padding: 4px 8px; }
.draft-head { display: flex; gap: 6px; align-items: center; }
.draft p { margin: 2px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.empty { padding: 8px; margin: 0; }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 10px; margin: 4px 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; table-layout: fixed; }
caption { text-align: left; font-weight: 600; padding: 2px 0; }
th, td { text-align: left; vertical-align: top; border-top: 1px solid var(--line); padding: 2px 4px; overflow-wrap: anywhere; }
thead th { border-top: 0; color: var(--muted); font-weight: 400; }
/* A key stays on one line: a long one ends in an ellipsis, its title gives it whole. */
tbody th { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.scope tbody th { width: 40%; }
.d-added .d-after, .d-changed .d-after { color: var(--add); }
.d-changed .d-before { color: var(--del); text-decoration: line-through; }
.j-tree, .j-list { list-style: none; margin: 0; padding-left: 14px; }
.j-tree { padding-left: 0; overflow-wrap: anywhere; }
.j-tree details > summary { cursor: pointer; }
.j-key { color: var(--accent); }
.j-str { color: var(--add); }
.j-time, .j-brief { color: var(--muted); }
.copy { font-size: 11px; padding: 0 6px; margin-left: 14px; }
.fold { border-top: 1px solid var(--line); padding: 4px 0; }
.fold > summary { cursor: pointer; font-weight: 600; }
.plain, .hits { list-style: none; margin: 0; padding: 0; }
.plain li { padding: 2px 0; overflow-wrap: anywhere; }
.hit { all: unset; box-sizing: border-box; cursor: pointer; display: block; width: 100%; padding: 4px; border-bottom: 1px solid var(--line); }
.hit:focus-visible { outline: 2px solid var(--accent); }
.hit-where { display: block; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.snippet { display: block; overflow-wrap: anywhere; }
mark { background: var(--sel); color: inherit; }
.set-key { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; border-top: 1px solid var(--line); padding-top: 6px; }
.set-key label { display: inline-flex; gap: 4px; align-items: center; }
@container (max-width: 1000px) {
  .main { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); grid-template-rows: minmax(0, 1fr) auto; overflow: auto; }
  .side { grid-column: 1 / -1; border-top: 1px solid var(--line); border-right: 0; overflow: visible; }
}
@container (max-width: 640px) {
  .main { display: block; overflow: auto; }
  .col { border-right: 0; border-bottom: 1px solid var(--line); overflow: visible; }
  .events { height: 60vh; overflow: hidden; }
  .pickers select { max-width: 100%; }
}
`;
