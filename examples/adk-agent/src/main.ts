/**
 * The page: the conversation and the balance drawn from the store by a live query
 * (`watchSession`), so what the Runner appends shows up as it is stored, and a reload
 * draws the same conversation, a pending confirmation included. Text is set as
 * `textContent`: nothing from the store is ever parsed as HTML.
 */
import { openSessionStore, type Session, watchSession } from 'idb-adk-sessions';
import { createRunner, pendingConfirmation, runTurn, type TurnInput } from './agent.js';

const key = { appName: 'adk-agent', userId: 'me', sessionId: 'main' };
const store = openSessionStore({ dbName: 'adk-agent' });
const runner = createRunner(store, key.appName);

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const conversation = $<HTMLOListElement>('#conversation');
const balance = $<HTMLOutputElement>('#balance');
const confirmation = $<HTMLFieldSetElement>('#confirmation');
const question = $<HTMLParagraphElement>('#question');
const form = $<HTMLFormElement>('#composer');
const message = $<HTMLInputElement>('#message');
const error = $<HTMLParagraphElement>('#error');

function busy(on: boolean): void {
  document.body.setAttribute('aria-busy', String(on));
  for (const control of [...form.elements, confirmation] as HTMLButtonElement[]) control.disabled = on;
}

/** Runs a turn with the controls locked; an error is shown, and the conversation so far stays stored. */
async function turn(input: TurnInput): Promise<void> {
  busy(true);
  error.textContent = '';
  try {
    await runTurn(runner, key.userId, key.sessionId, input);
  } catch (failure) {
    error.textContent = String(failure);
  } finally {
    busy(false);
  }
}

function render(session: Session | undefined): void {
  const events = session?.events ?? [];
  conversation.replaceChildren(
    ...events.flatMap((event) => {
      const text = (event.content?.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])).join('\n');
      if (!text) return [];
      const item = document.createElement('li');
      item.dataset.author = event.author === 'user' ? 'user' : 'agent';
      item.textContent = text;
      return [item];
    }),
  );
  balance.textContent = String(session?.state.balance ?? '');
  const pending = pendingConfirmation(events);
  confirmation.hidden = !pending;
  confirmation.dataset.callId = pending?.callId ?? '';
  question.textContent = pending ? `Allow ${pending.tool} ${JSON.stringify(pending.args)}?` : '';
  // While ADK waits for an answer, the answer is the only way on.
  message.readOnly = Boolean(pending);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = message.value.trim();
  if (!text) return;
  form.reset();
  void turn({ text });
});
for (const [button, confirmed] of [
  ['#approve', true],
  ['#reject', false],
] as const) {
  $(button).addEventListener('click', () => void turn({ callId: confirmation.dataset.callId ?? '', confirmed }));
}

const show = (failure: unknown): void => {
  error.textContent = String(failure);
};
// Locked until the conversation is first drawn.
busy(true);
store.getOrCreateSession({ ...key, state: { balance: 100 } }).then(() => {
  let first = true;
  watchSession(store, key).watch((session) => {
    render(session);
    if (first) busy(false);
    first = false;
  }, show);
}, show);
