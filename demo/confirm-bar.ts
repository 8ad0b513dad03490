/**
 * The bar that asks for the user's answer to ADK's confirmation request: which tool the agent
 * wants to run with what, then Approve and Reject. Shown only while a confirmation is pending.
 */
import type { PendingConfirmation } from './confirmation.js';
import { h, replace } from './dom.js';

export class ConfirmBar {
  private readonly text = h('p', { class: 'confirm-text' });
  private readonly approve = h('button', { type: 'button', class: 'primary' }, 'Approve');
  private readonly reject = h('button', { type: 'button', class: 'ghost' }, 'Reject');
  readonly el = h(
    'div',
    { class: 'confirm-bar', role: 'group', 'aria-label': 'Confirmation', hidden: true },
    this.text,
    this.approve,
    this.reject,
  );
  /** The confirmation the bar asks about, if one is pending. */
  pending: PendingConfirmation | undefined;

  constructor(answer: (confirm: boolean) => void) {
    this.approve.addEventListener('click', () => answer(true));
    this.reject.addEventListener('click', () => answer(false));
  }

  /** Locks the answer buttons while a turn runs. */
  set disabled(value: boolean) {
    this.approve.disabled = this.reject.disabled = value;
  }

  show(pending: PendingConfirmation | undefined): void {
    this.pending = pending;
    this.el.hidden = !pending;
    if (!pending) return;
    const args = Object.entries(pending.args)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(', ');
    replace(this.text, 'The ADK agent asks to run ', h('code', null, `${pending.tool}(${args})`), '.');
  }
}
