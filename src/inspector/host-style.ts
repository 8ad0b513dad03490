/**
 * The host's own styles: the toggle button and where the panel sits for each
 * position, and the colours (custom properties) every view uses. Adopted by the
 * shadow root as a constructed stylesheet, so no `<style>` element or inline
 * style is ever written (a strict CSP needs no `'unsafe-inline'`).
 */
export const HOST_CSS = `
:host {
  all: initial;
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
.toggle {
  position: fixed; right: 12px; bottom: 12px; z-index: 2147483647;
  font: inherit; font-weight: 600; padding: 6px 12px; border-radius: 999px;
  border: 1px solid var(--line); background: var(--accent); color: var(--accent-fg); cursor: pointer;
}
:host([data-open]) .toggle { display: none; }
.panel {
  position: fixed; z-index: 2147483646; background: var(--bg); color: var(--fg);
  border: 1px solid var(--line); display: flex; flex-direction: column; overflow: hidden;
}
:host([data-position="bottom"]) .panel { left: 0; right: 0; bottom: 0; height: min(60vh, 640px); }
:host([data-position="right"]) .panel { top: 0; right: 0; bottom: 0; width: min(100vw, 720px); }
:host([data-position="left"]) .panel { top: 0; left: 0; bottom: 0; width: min(100vw, 720px); }
:host([data-position="full"]) .panel { inset: 0; }
:host([data-embedded]) { display: block; height: 100%; }
:host([data-embedded]) .panel { position: relative; inset: auto; height: 100%; border: 0; }
`;
