/**
 * Modal dialogs on the native `<dialog>`: focus moves in and back, Escape
 * cancels, Tab stays inside. Errors show in the dialog, next to the fields.
 */
import { InvalidInputError } from '../src/index.js';
import { DEFAULT_APP, DEFAULT_USER, type DemoApp } from './context.js';
import { type Child, h } from './dom.js';
import { describeError } from './status.js';

interface ModalParts {
  dialog: HTMLDialogElement;
  form: HTMLFormElement;
  error: HTMLElement;
  submit: HTMLButtonElement;
}

function modal(title: string, fields: Child[], submitLabel: string, danger = false): ModalParts {
  const titleId = `dialog-title-${Math.random().toString(36).slice(2)}`;
  const error = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: danger ? 'danger' : 'primary' }, submitLabel);
  const cancel = h('button', { type: 'button', class: 'ghost', onclick: () => dialog.close('cancel') }, 'Cancel');
  const form = h(
    'form',
    { class: 'dialog-form', novalidate: true },
    h('h2', { id: titleId, class: 'dialog-title' }, title),
    fields,
    error,
    h('div', { class: 'dialog-actions' }, cancel, submit),
  );
  const dialog = h('dialog', { 'aria-labelledby': titleId }, form);
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  return { dialog, form, error, submit };
}

function field(label: string, input: HTMLInputElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  const id = `field-${Math.random().toString(36).slice(2)}`;
  input.id = id;
  const hintEl = hint ? h('span', { class: 'field-hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hintEl);
}

/** Runs `action` on submit; keeps the dialog open with the error shown when it throws. */
function onSubmit(parts: ModalParts, action: () => Promise<void>): void {
  parts.form.addEventListener('submit', (event) => {
    event.preventDefault();
    parts.error.textContent = '';
    parts.submit.disabled = true;
    action().then(
      () => parts.dialog.close('done'),
      (error: unknown) => {
        parts.submit.disabled = false;
        parts.error.textContent = error instanceof InvalidInputError ? error.message : describeError(error);
      },
    );
  });
}

/** Asks before something that cannot be undone; resolves `true` to go ahead. Cancel has the focus. */
export function confirmDialog(title: string, body: Child, confirmLabel: string): Promise<boolean> {
  const parts = modal(title, [h('p', { class: 'dialog-text' }, body)], confirmLabel, true);
  const cancel = parts.form.querySelector<HTMLButtonElement>('button[type=button]');
  return new Promise((resolve) => {
    parts.form.addEventListener('submit', (event) => {
      event.preventDefault();
      parts.dialog.close('confirm');
    });
    parts.dialog.addEventListener('close', () => resolve(parts.dialog.returnValue === 'confirm'));
    parts.dialog.showModal();
    cancel?.focus();
  });
}

/** New session: app, user, optional id and initial state; opens it when created. */
export function newSessionDialog(demo: DemoApp, onCreated: () => void): void {
  const selection = demo.selection();
  const app = h('input', { name: 'app', value: selection.app ?? DEFAULT_APP, required: true, spellcheck: 'false' });
  const user = h('input', {
    name: 'user',
    value: selection.user ?? selection.session?.userId ?? DEFAULT_USER,
    required: true,
    spellcheck: 'false',
  });
  const id = h('input', { name: 'id', placeholder: 'random UUID', spellcheck: 'false' });
  const state = h('textarea', {
    name: 'state',
    rows: 3,
    placeholder: '{"topic": "billing", "user:plan": "pro"}',
    spellcheck: 'false',
  });
  const parts = modal(
    'New session',
    [
      field('App name', app),
      field('User id', user),
      field('Session id', id, 'Optional. Leave empty for a random UUID.'),
      field('Initial state (JSON)', state, 'Optional. app: and user: keys go to the shared scopes.'),
    ],
    'Create',
  );
  onSubmit(parts, async () => {
    let initial: Record<string, unknown> | undefined;
    if (state.value.trim() !== '') {
      try {
        initial = JSON.parse(state.value);
      } catch (error) {
        throw new InvalidInputError(`Initial state is not valid JSON: ${(error as Error).message}`);
      }
      if (typeof initial !== 'object' || initial === null || Array.isArray(initial)) {
        throw new InvalidInputError('Initial state must be a JSON object, like {"key": "value"}');
      }
    }
    const session = await demo.store.createSession({
      appName: app.value,
      userId: user.value,
      ...(id.value !== '' ? { sessionId: id.value } : {}),
      ...(initial ? { state: initial } : {}),
    });
    demo.status.say(`Created session ${session.id}.`);
    await demo.navigate({
      app: session.appName,
      user: session.userId,
      session: { userId: session.userId, id: session.id },
    });
  });
  // After the dialog has given focus back to the page, so the callback can move it on.
  parts.dialog.addEventListener('close', () => {
    if (parts.dialog.returnValue === 'done') onCreated();
  });
  parts.dialog.showModal();
}

export interface SampleRequest {
  appName: string;
  users: number;
  sessions: number;
  eventsPerSession: number;
}

/** Asks what sample data to write; `start` runs it (the dialog closes at once, progress shows below). */
export function generateDialog(check: (r: SampleRequest) => string | null, start: (r: SampleRequest) => void): void {
  const app = h('input', { name: 'app', value: 'sample-app', spellcheck: 'false' });
  const users = h('input', { name: 'users', type: 'number', min: 1, value: 5, inputmode: 'numeric' });
  const sessions = h('input', { name: 'sessions', type: 'number', min: 1, value: 100, inputmode: 'numeric' });
  const events = h('input', { name: 'events', type: 'number', min: 0, value: 20, inputmode: 'numeric' });
  const parts = modal(
    'Generate sample data',
    [
      field('App name', app),
      h(
        'div',
        { class: 'field-row' },
        field('Users', users),
        field('Sessions', sessions),
        field('Events per session', events),
      ),
      h(
        'p',
        { class: 'dialog-text muted' },
        'Conversations with state on every scope and some tool calls. Appends are issued together, so the store commits many per transaction.',
      ),
    ],
    'Generate',
  );
  onSubmit(parts, async () => {
    const request: SampleRequest = {
      appName: app.value,
      users: users.valueAsNumber,
      sessions: sessions.valueAsNumber,
      eventsPerSession: events.valueAsNumber,
    };
    const problem = check(request);
    if (problem) throw new InvalidInputError(problem);
    start(request);
  });
  parts.dialog.showModal();
}

export interface ExportChoice {
  label: string;
  count: number;
  appName?: string;
  userId?: string;
}

/** Asks what to export, the current selection first; `start` runs it (progress shows below). */
export function exportDialog(choices: ExportChoice[], start: (choice: ExportChoice, withFiles: boolean) => void): void {
  const name = `export-scope-${Math.random().toString(36).slice(2)}`;
  const radios = choices.map((_, i) => h('input', { type: 'radio', name, value: String(i), checked: i === 0 }));
  const withFiles = h('input', { type: 'checkbox', name: 'with-files' });
  const parts = modal(
    'Export sessions',
    [
      h(
        'fieldset',
        { class: 'choices' },
        h('legend', null, 'What to export'),
        choices.map((choice, i) =>
          h(
            'label',
            { class: 'choice' },
            radios[i],
            h('span', null, choice.label),
            h(
              'span',
              { class: 'muted' },
              `${choice.count.toLocaleString('en-US')} session${choice.count === 1 ? '' : 's'}`,
            ),
          ),
        ),
      ),
      h('label', { class: 'choice' }, withFiles, h('span', null, 'Include attached files (a .zip)')),
      h(
        'p',
        { class: 'dialog-text muted' },
        'Saved as one JSON file: whole sessions, every event, state by scope; with files, a .zip that also holds every artifact.',
      ),
    ],
    'Export',
  );
  onSubmit(parts, async () => {
    const at = radios.findIndex((r) => r.checked);
    start(choices[at] as ExportChoice, withFiles.checked);
  });
  parts.dialog.showModal();
}
