/**
 * The host's own styles: the toggle button, and the panel hidden. Where the
 * open panel sits for each position comes with the views' sheet (styles.ts),
 * loaded on first open: the panel shows once its views can. Adopted by the
 * shadow root as a constructed stylesheet, so no `<style>` element or inline
 * style is ever written (a strict CSP needs no `'unsafe-inline'`).
 */
// Written compact: this sheet ships in the app's page bundle, where every byte counts.
export const HOST_CSS =
  ':host{all:initial;font:13px/1.4 system-ui,sans-serif}' +
  '.toggle{position:fixed;right:12px;bottom:12px;z-index:2147483647;font:inherit;font-weight:600;padding:6px 12px;border-radius:99px;border:1px solid #fff;background:#1d4ed8;color:#fff;cursor:pointer}' +
  ':host([data-open]) .toggle,.panel{display:none}';
