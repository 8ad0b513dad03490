/**
 * The host's own styles: the toggle button and where the panel sits for each
 * position (the colours come with the views' sheet, loaded on first open). Adopted by the
 * shadow root as a constructed stylesheet, so no `<style>` element or inline
 * style is ever written (a strict CSP needs no `'unsafe-inline'`).
 */
// Written compact: this sheet ships in the app's page bundle, where every byte counts.
export const HOST_CSS =
  ':host{all:initial;font:13px/1.4 system-ui,sans-serif}' +
  '.toggle{position:fixed;right:12px;bottom:12px;z-index:2147483647;font:inherit;font-weight:600;padding:6px 12px;border-radius:99px;border:1px solid #fff;background:#1d4ed8;color:#fff;cursor:pointer}' +
  ':host([data-open]) .toggle,.panel{display:none}' +
  ':host([data-open]) .panel{display:flex;flex-direction:column;overflow:hidden;position:fixed;z-index:2147483646;inset:0}' +
  ':host([data-position=bottom]) .panel{top:auto;height:min(60vh,640px)}' +
  ':host([data-position=right]) .panel{left:auto;width:min(100%,720px)}' +
  ':host([data-position=left]) .panel{right:auto;width:min(100%,720px)}' +
  ':host([data-embedded]){display:block;height:100%}' +
  ':host([data-embedded]) .panel{position:relative;height:100%;border:0}';
