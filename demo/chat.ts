/**
 * The app's chat: the conversation of the session the page has open, as its
 * user sees it (what was said, and the files attached), ADK's confirmation
 * requests with Approve and Reject, and the composer that talks to the demo
 * agent or the ADK agent. Everything else about the session (events, tool
 * calls, state by scope, time travel) is the inspector's to show. It reads the
 * session again whenever a change to it commits, whoever made it.
 */
import type { Event, Session, StoreChange } from '../src/index.js';
import { runTurn } from './agent.js';
import { attachFiles, eventAttachments, ObjectUrls } from './attachments.js';
import { ConfirmBar } from './confirm-bar.js';
import { pendingConfirmation } from './confirmation.js';
import type { DemoApp } from './context.js';
import { acceptFileDrops, h, replace, throttle } from './dom.js';
import { FollowScroll } from './follow-scroll.js';
import { clockTime, formatBytes } from './format.js';
import { loadAdkAgent } from './load-adk-agent.js';
import type { Selection } from './route.js';

const HINTS = {
  demo: {
    placeholder: 'Message the demo agent',
    hint: 'Try "my name is Ada", "add 2 and 3", "what time is it", "help".',
  },
  adk: { placeholder: 'Message the ADK agent', hint: 'Try "send 5 to Bob" (it asks first), "add 2 and 3".' },
};

/** What a chat shows of an event: its text, and the files it recorded; tool traffic is the inspector's. */
function message(event: Event, attachments: HTMLElement | null): HTMLLIElement | null {
  const texts = (event.content?.parts ?? []).filter((p) => typeof p.text === 'string' && !p.thought);
  if (texts.length === 0 && !attachments) return null;
  const who = event.author === 'user' ? 'user' : 'agent';
  return h(
    'li',
    { class: `msg msg-${who}`, 'data-event-id': event.id },
    h(
      'div',
      { class: 'msg-head' },
      h('span', { class: 'author' }, event.author ?? '?'),
      h('time', { class: 'mono msg-time' }, clockTime(event.timestamp)),
    ),
    texts.map((p) => h('p', { class: 'part-text' }, p.text as string)),
    attachments,
  );
}

export class Chat {
  readonly el: HTMLElement;
  private readonly title = h('h2', { class: 'mono session-id' });
  private readonly meta = h('p', { class: 'meta' });
  private readonly conversation = h('ol', { class: 'conversation', 'aria-label': 'Conversation' });
  private readonly scroller = h('div', { class: 'conversation-scroll' }, this.conversation);
  private readonly follow = new FollowScroll(this.scroller);
  /** What to try, under the box rather than in its placeholder: a placeholder is cut at the box's width. */
  private readonly hint = h('p', { class: 'composer-hint', id: 'composer-hint' }, HINTS.demo.hint);
  private readonly input = h('input', {
    name: 'message',
    class: 'message',
    autocomplete: 'off',
    placeholder: HINTS.demo.placeholder,
    'aria-label': 'Message',
    'aria-describedby': 'composer-hint',
  });
  private readonly send = h('button', { type: 'submit', class: 'primary' }, 'Send');
  /** Files go to the store as they are (a `File` is a Blob); the button opens the picker. */
  private readonly files = h('input', {
    type: 'file',
    multiple: true,
    class: 'sr-only',
    tabindex: -1,
    'aria-hidden': 'true',
  });
  private readonly attach = h(
    'button',
    { type: 'button', class: 'ghost', title: 'Or drop files on the conversation' },
    'Attach file',
  );
  private readonly progress = h('div', { class: 'attach-progress', role: 'status', hidden: true });
  private readonly urls = new ObjectUrls();
  /** Which agent answers: the hand-written one, or ADK's own Runner and LlmAgent (loaded when chosen). */
  private readonly agent = h(
    'select',
    { name: 'agent', class: 'agent-picker', 'aria-label': 'Agent' },
    h('option', { value: 'demo' }, 'Demo agent'),
    h('option', { value: 'adk' }, 'ADK agent'),
  );
  private readonly composer = h(
    'form',
    { class: 'composer' },
    h('div', { class: 'composer-tools' }, this.agent, this.attach, this.files),
    h('div', { class: 'composer-main' }, this.input, this.send),
    this.hint,
  );
  /** ADK's human-in-the-loop: shown while a tool call waits for the user's answer. */
  private readonly confirmBar = new ConfirmBar((confirm) => void this.answer(confirm));
  private readonly body = h(
    'div',
    { class: 'chat-body' },
    h('header', { class: 'chat-head' }, this.title, this.meta),
    this.scroller,
    this.confirmBar.el,
    this.progress,
    this.composer,
  );
  private readonly placeholder = h('div', { class: 'chat-empty' });
  private key: Selection = {};
  private session: Session | undefined;
  private shownIds: string[] = [];
  private generation = 0;
  private turnRunning = false;
  private wantFocus = false;

  constructor(private readonly app: DemoApp) {
    this.el = h('section', { class: 'chat pane', 'aria-label': 'Chat' }, this.body, this.placeholder);
    this.composer.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.chat();
    });
    this.agent.addEventListener('change', () => {
      const hints = this.agent.value === 'adk' ? HINTS.adk : HINTS.demo;
      this.input.placeholder = hints.placeholder;
      this.hint.textContent = hints.hint;
    });
    this.attach.addEventListener('click', () => this.files.click());
    this.files.addEventListener('change', () => {
      const picked = [...(this.files.files ?? [])];
      this.files.value = '';
      void this.attachAll(picked);
    });
    acceptFileDrops(
      this.body,
      () => this.session !== undefined,
      (files) => void this.attachAll(files),
    );
    this.showPlaceholder(null);
  }

  /** Focuses the message box now, or as soon as the session is shown (a read may still be under way). */
  focusComposer(): void {
    if (this.body.hidden) this.wantFocus = true;
    else this.input.focus();
  }

  /** Opens the selected session's conversation (or says there is none). */
  async show(selection: Selection): Promise<void> {
    const same = this.key.app === selection.app && sameSession(this.key.session, selection.session);
    if (same && this.session) return;
    this.key = { ...selection };
    this.session = undefined;
    this.urls.revokeAll();
    this.shownIds = [];
    if (!selection.session) {
      this.generation++;
      this.showPlaceholder(null);
      return;
    }
    await this.reload();
  }

  /** A committed change from any tab. */
  onChange(change: StoreChange): void {
    const { app, session } = this.key;
    if (change.appName !== app || change.userId !== session?.userId || change.sessionId !== session?.id) return;
    if (change.type === 'deleted') {
      this.generation++;
      this.session = undefined;
      this.showPlaceholder('deleted');
      return;
    }
    this.scheduleReload();
  }

  /** Many changes in a burst (another tab's agent) make one read. */
  private readonly scheduleReload = throttle(() => void this.reload(), 100);

  private async reload(): Promise<void> {
    const { app, session } = this.key;
    if (!app || !session) return;
    const generation = ++this.generation;
    const loaded = await this.app.store.getSession({ appName: app, userId: session.userId, sessionId: session.id });
    if (generation !== this.generation) return;
    if (!loaded) {
      this.session = undefined;
      this.showPlaceholder('missing');
      return;
    }
    this.session = loaded;
    this.render(loaded);
    this.confirmBar.show(pendingConfirmation(loaded.events));
  }

  private render(session: Session): void {
    this.body.hidden = false;
    this.placeholder.hidden = true;
    this.title.textContent = session.id;
    this.title.title = session.id;
    replace(
      this.meta,
      h('span', null, 'app ', h('span', { class: 'mono' }, session.appName)),
      h('span', null, 'user ', h('span', { class: 'mono' }, session.userId)),
    );
    const opened = this.shownIds.length === 0;
    // Events are only ever appended: what is new is what follows the last one shown.
    const last = this.shownIds.at(-1);
    const at = last === undefined ? -1 : session.events.findIndex((e) => e.id === last);
    const fresh = at >= 0 ? session.events.slice(at + 1) : session.events;
    if (at < 0) {
      this.urls.revokeAll();
      replace(this.conversation);
      this.shownIds = [];
    }
    const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
    for (const event of fresh) {
      const item = message(event, eventAttachments(this.app.store, key, event, this.urls));
      if (item) this.conversation.append(item);
      this.shownIds.push(event.id);
    }
    if (session.events.length === 0) {
      replace(
        this.conversation,
        h(
          'li',
          { class: 'empty' },
          'No messages yet. Send one below: the demo agent answers offline, and each turn writes state to every scope (see the inspector).',
        ),
      );
      this.shownIds = [];
    }
    if (opened) this.follow.follow();
    else this.follow.added();
    if (this.wantFocus) {
      this.wantFocus = false;
      this.input.focus();
    }
  }

  private showPlaceholder(why: 'deleted' | 'missing' | null): void {
    this.body.hidden = true;
    this.placeholder.hidden = false;
    this.confirmBar.show(undefined);
    const id = h('span', { class: 'mono' }, this.key.session?.id ?? '');
    if (why === 'deleted') {
      replace(
        this.placeholder,
        h('h2', null, 'Session deleted'),
        h('p', null, 'Session ', id, ' was deleted, here or in another tab.'),
      );
    } else if (why === 'missing') {
      replace(
        this.placeholder,
        h('h2', null, 'No such session'),
        h('p', null, 'Session ', id, ` does not exist for ${this.key.session?.userId} in ${this.key.app}.`),
      );
    } else {
      replace(
        this.placeholder,
        h('h2', null, 'No conversation open'),
        h(
          'ul',
          { class: 'tips' },
          h('li', null, h('kbd', null, 'New session'), ' starts a conversation with the offline demo agent.'),
          h('li', null, h('kbd', null, 'Generate sample data'), ' fills the store with many sessions.'),
          h(
            'li',
            null,
            h('kbd', null, 'Import'),
            ' loads a file made by Export. You can also drop the file on the page.',
          ),
          h('li', null, 'The inspector beside shows every session in the store, live across tabs.'),
        ),
      );
    }
  }

  /** The user's answer to ADK's confirmation request, sent as ADK expects it: a function response. */
  private async answer(confirm: boolean): Promise<void> {
    const session = this.session;
    const pending = this.confirmBar.pending;
    if (!session || !pending || this.turnRunning) return;
    await this.busy(async () => {
      const { runAdkTurn } = await loadAdkAgent();
      await runAdkTurn(this.app.store, session, { confirm, callId: pending.callId });
    });
  }

  /** Runs one turn with the composer locked; errors go to the status bar. */
  private async busy(turn: () => Promise<void>): Promise<boolean> {
    this.turnRunning = true;
    this.send.disabled = this.confirmBar.disabled = true;
    this.composer.setAttribute('aria-busy', 'true');
    let ok = false;
    try {
      await turn();
      ok = true;
    } catch (error) {
      this.app.status.error('The message was not stored', error);
    } finally {
      this.turnRunning = false;
      this.send.disabled = this.confirmBar.disabled = false;
      this.composer.removeAttribute('aria-busy');
      this.input.focus();
    }
    await this.reload();
    return ok;
  }

  /** Stores the files as artifacts and records them in one user event; a bar shows which file is going in. */
  private async attachAll(files: File[]): Promise<void> {
    const session = this.session;
    if (!session || files.length === 0 || this.turnRunning) return;
    const bar = h('progress', { max: files.length, value: 0, 'aria-label': 'Attaching' });
    const label = h('span');
    replace(this.progress, label, bar);
    this.progress.hidden = false;
    try {
      await this.busy(() =>
        attachFiles(this.app.store, session, files, (file, i) => {
          bar.value = i;
          // A large file's bytes go in as one Blob: the bar waits on it rather than guessing.
          if (file.size > 4 * 1024 * 1024) bar.removeAttribute('value');
          label.textContent = `Attaching ${file.name} (${formatBytes(file.size)}), ${i + 1} of ${files.length}… `;
        }),
      );
    } finally {
      this.progress.hidden = true;
      replace(this.progress);
    }
  }

  private async chat(): Promise<void> {
    const session = this.session;
    const text = this.input.value.trim();
    if (!session || text === '' || this.turnRunning) return;
    const adk = this.agent.value === 'adk';
    const sent = await this.busy(async () => {
      if (adk) {
        const { runAdkTurn } = await loadAdkAgent();
        await runAdkTurn(this.app.store, session, { text });
      } else {
        await runTurn(this.app.store, session, text);
      }
    });
    if (sent) this.input.value = '';
  }
}

function sameSession(a: Selection['session'], b: Selection['session']): boolean {
  return a?.userId === b?.userId && a?.id === b?.id;
}
