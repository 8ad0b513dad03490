/**
 * Feedback for long and failing operations: a status bar with progress bars
 * (one per running task) and polite announcements that clear after a few seconds,
 * and an alert area for errors that stays until dismissed.
 */
import { h, replace } from './dom.js';

/** How long a message stays in the status bar (ms): long enough to read, gone before it is stale. */
export const MESSAGE_MS = 8_000;

export interface Task {
  progress(done: number, total: number, detail?: string): void;
  finish(message: string): void;
  fail(title: string, error: unknown): void;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.name} (${code}): ${error.message}` : `${error.name}: ${error.message}`;
  }
  return String(error);
}

export class Status {
  readonly bar: HTMLElement;
  readonly alerts: HTMLElement;
  private readonly message: HTMLElement;
  private readonly tasks: HTMLElement;
  private clearing: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.message = h('span', { class: 'status-message', role: 'status', 'aria-live': 'polite' });
    this.tasks = h('div', { class: 'status-tasks' });
    this.bar = h('footer', { class: 'statusbar' }, this.tasks, this.message);
    this.alerts = h('div', { class: 'alerts' });
  }

  /** Shows `text` until the next message, or for `MESSAGE_MS`: an old message would read as news. */
  say(text: string): void {
    clearTimeout(this.clearing);
    this.message.textContent = text;
    this.clearing = setTimeout(() => {
      this.message.textContent = '';
    }, MESSAGE_MS);
  }

  error(title: string, error: unknown): void {
    const detail = describeError(error);
    console.error(title, error);
    const alert = h(
      'div',
      { class: 'alert', role: 'alert' },
      h('strong', null, title),
      h('span', { class: 'alert-detail' }, detail),
      h('button', { type: 'button', class: 'ghost', onclick: () => alert.remove() }, 'Dismiss'),
    );
    this.alerts.append(alert);
  }

  clearErrors(): void {
    replace(this.alerts);
  }

  /** Shows a labelled progress bar (and a Stop button when `stop` is given) until the task finishes or fails. */
  task(label: string, stop?: () => void): Task {
    const bar = h('progress', { 'aria-label': `${label} progress` });
    const text = h('span', { class: 'task-text' }, `${label}…`);
    const stopButton = stop
      ? h('button', { type: 'button', class: 'ghost small', 'aria-label': `Stop: ${label}`, onclick: stop }, 'Stop')
      : null;
    const row = h('div', { class: 'task' }, h('span', { class: 'task-label' }, label), bar, text, stopButton);
    this.tasks.append(row);
    return {
      progress: (done, total, detail) => {
        bar.max = Math.max(1, total);
        bar.value = Math.min(done, total);
        const pct = total > 0 ? Math.floor((done / total) * 100) : 0;
        text.textContent = `${pct}%${detail ? ` · ${detail}` : ''}`;
      },
      finish: (message) => {
        row.remove();
        this.say(message);
      },
      fail: (title, error) => {
        row.remove();
        this.say(`${title}.`);
        this.error(title, error);
      },
    };
  }
}
