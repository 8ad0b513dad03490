/**
 * The right pane: one session. Its recent events as a timeline, its state by
 * scope, a composer to talk to the demo agent, and Delete. It reloads from the
 * store whenever the session changes, whoever changed it.
 */
import type { Event, Session, StoreChange } from '../src/index.js';
import { runTurn } from './agent.js';
import { ArtifactsPanel, attachFiles, eventAttachments, ObjectUrls } from './attachments.js';
import { ConfirmBar } from './confirm-bar.js';
import { pendingConfirmation } from './confirmation.js';
import type { Inspector } from './context.js';
import { confirmDialog } from './dialogs.js';
import { acceptFileDrops, h, replace, throttle } from './dom.js';
import { FollowScroll } from './follow-scroll.js';
import { formatBytes, formatCount } from './format.js';
import { loadAdkAgent } from './load-adk-agent.js';
import type { Selection } from './route.js';
import { placeholderContent, sessionTitle } from './session-head.js';
import { statePanel } from './state-panel.js';
import { renderEvents, revealEvent } from './timeline.js';

/** Events loaded at first, and added by each "Load earlier events". */
export const WINDOW_STEP = 200;

const HINTS = {
  demo: {
    placeholder: 'Message the demo agent',
    hint: 'Try "my name is Ada", "add 2 and 3", "what time is it", "help".',
  },
  adk: { placeholder: 'Message the ADK agent', hint: 'Try "send 5 to Bob" (it asks first), "add 2 and 3".' },
};

export class SessionView {
  readonly el: HTMLElement;
  private readonly head = h('header', { class: 'detail-head' });
  private readonly timeline = h('ol', { class: 'timeline', 'aria-label': 'Events' });
  private readonly earlier = h('button', { type: 'button', class: 'ghost small earlier' }, 'Load earlier events');
  private readonly scroller = h('div', { class: 'timeline-scroll' }, this.earlier, this.timeline);
  private readonly eventsTitle = h('h3', { class: 'col-title' }, 'Events');
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
    { type: 'button', class: 'ghost', title: 'Or drop files on the events' },
    'Attach file',
  );
  private readonly progress = h('div', { class: 'attach-progress', role: 'status', hidden: true });
  private readonly urls = new ObjectUrls();
  private readonly artifacts: ArtifactsPanel;
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
  private readonly state = h('aside', { class: 'state-col', 'aria-label': 'State' });
  private readonly body = h(
    'div',
    { class: 'detail-body' },
    h(
      'div',
      { class: 'timeline-col' },
      this.eventsTitle,
      this.scroller,
      this.confirmBar.el,
      this.progress,
      this.composer,
    ),
    this.state,
  );
  private readonly placeholder = h('div', { class: 'detail-empty' });
  private key: Selection = {};
  private session: Session | undefined;
  private rendered: Event[] = [];
  private window = WINDOW_STEP;
  private generation = 0;
  private turnRunning = false;

  constructor(private readonly inspector: Inspector) {
    this.artifacts = new ArtifactsPanel(inspector.store, this.urls);
    this.el = h('section', { class: 'detail pane', 'aria-label': 'Session' }, this.head, this.body, this.placeholder);
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
    this.acceptDrops();
    this.earlier.addEventListener('click', () => {
      this.window += WINDOW_STEP;
      void this.reload({ full: true });
    });
    this.showPlaceholder(null);
  }

  /** Focuses the message box now, or as soon as the session is shown (a load may still be under way). */
  focusComposer(): void {
    if (this.body.hidden) this.wantFocus = true;
    else this.input.focus();
  }

  private wantFocus = false;

  /** Shows the selected session (or a placeholder), reloading when the selection changed. */
  async show(selection: Selection): Promise<void> {
    const same =
      this.key.app === selection.app &&
      this.key.session?.userId === selection.session?.userId &&
      this.key.session?.id === selection.session?.id;
    if (same && this.session) return;
    this.key = { ...selection };
    this.session = undefined;
    this.urls.revokeAll();
    this.rendered = [];
    this.window = WINDOW_STEP;
    this.wantFocus = false;
    if (!selection.session) {
      this.generation++;
      this.showPlaceholder(null);
      return;
    }
    await this.reload({ full: true });
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
    // An event stored again under an id already shown changed in place: redraw everything.
    const shown = new Set(this.rendered.map((e) => e.id));
    this.pendingFull ||= change.eventIds.some((id) => shown.has(id));
    this.scheduleReload();
  }

  private pendingFull = false;
  /** Many changes in a burst (sample data, another tab's agent) make one reload. */
  private readonly scheduleReload = throttle(() => {
    const full = this.pendingFull;
    this.pendingFull = false;
    void this.reload({ full });
  }, 100);

  async reload(options: { full: boolean } = { full: false }): Promise<void> {
    const { app, session } = this.key;
    if (!app || !session) return;
    const generation = ++this.generation;
    const loaded = await this.inspector.store.getSession({
      appName: app,
      userId: session.userId,
      sessionId: session.id,
      config: { numRecentEvents: this.window },
    });
    if (generation !== this.generation) return;
    if (!loaded) {
      this.session = undefined;
      this.showPlaceholder('missing');
      return;
    }
    this.session = loaded;
    this.render(loaded, options.full);
    this.confirmBar.show(pendingConfirmation(loaded.events));
  }

  /** The user's answer to ADK's confirmation request, sent as ADK expects it: a function response. */
  private async answer(confirm: boolean): Promise<void> {
    const session = this.session;
    const pending = this.confirmBar.pending;
    if (!session || !pending || this.turnRunning) return;
    await this.busy(async () => {
      const { runAdkTurn } = await loadAdkAgent();
      await runAdkTurn(this.inspector.store, session, { confirm, callId: pending.callId });
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
      this.inspector.status.error('The message was not stored', error);
    } finally {
      this.turnRunning = false;
      this.send.disabled = this.confirmBar.disabled = false;
      this.composer.removeAttribute('aria-busy');
      this.input.focus();
    }
    await this.reload();
    return ok;
  }

  private showPlaceholder(why: 'deleted' | 'missing' | null): void {
    this.head.hidden = true;
    this.body.hidden = true;
    this.placeholder.hidden = false;
    replace(this.placeholder, ...placeholderContent(why, this.key));
  }

  private render(session: Session, full: boolean): void {
    this.head.hidden = false;
    this.body.hidden = false;
    this.placeholder.hidden = true;
    const complete = session.events.length < this.window;
    this.renderHead(session, complete);
    const opened = this.rendered.length === 0;
    const lastShown = this.rendered.at(-1);
    const at = lastShown && !full ? session.events.findIndex((e) => e.id === lastShown.id) : -1;
    if (at >= 0) {
      const added = session.events.slice(at + 1);
      for (const li of renderEvents(this.timeline, added, lastShown, this.attachments(session)))
        li.classList.add('new');
      this.rendered = [...this.rendered, ...added];
    } else {
      this.urls.revokeAll();
      replace(this.timeline);
      renderEvents(this.timeline, session.events, undefined, this.attachments(session));
      this.rendered = [...session.events];
    }
    if (session.events.length === 0) {
      replace(
        this.timeline,
        h(
          'li',
          { class: 'empty' },
          'No events yet. Send a message below: the demo agent answers offline, and each turn writes state to every scope.',
        ),
      );
    }
    this.earlier.hidden = complete;
    replace(
      this.eventsTitle,
      'Events ',
      h(
        'span',
        { class: 'pane-sub' },
        complete ? `${formatCount(session.events.length)}` : `last ${formatCount(session.events.length)}`,
      ),
    );
    replace(
      this.state,
      h('h3', { class: 'col-title' }, 'State'),
      statePanel(session, { complete, reveal: (id) => this.reveal(id) }),
      this.artifacts.el,
    );
    this.artifacts.show(session);
    if (opened) this.follow.follow();
    else this.follow.added();
    if (this.wantFocus) {
      this.wantFocus = false;
      this.input.focus();
    }
  }

  private renderHead(session: Session, complete: boolean): void {
    const remove = h('button', { type: 'button', class: 'danger' }, 'Delete session');
    remove.addEventListener('click', () => void this.remove(session, complete));
    replace(this.head, sessionTitle(session), remove);
  }

  /** Scrolls to an event and highlights it; says so when it is not among the loaded ones. */
  reveal(eventId: string): void {
    if (!revealEvent(this.timeline, eventId)) {
      this.inspector.status.say('That event is older than the loaded ones: use Load earlier events.');
    }
  }

  private attachments(session: Session) {
    const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
    return (event: Event) => eventAttachments(this.inspector.store, key, event, this.urls);
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
        attachFiles(this.inspector.store, session, files, (file, i) => {
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

  /** Files dropped on the events or the composer are attachments (the page elsewhere imports). */
  private acceptDrops(): void {
    acceptFileDrops(
      this.body.querySelector('.timeline-col') as HTMLElement,
      () => this.session !== undefined,
      (files) => void this.attachAll(files),
    );
  }

  private async chat(): Promise<void> {
    const session = this.session;
    const text = this.input.value.trim();
    if (!session || text === '' || this.turnRunning) return;
    const adk = this.agent.value === 'adk';
    const sent = await this.busy(async () => {
      if (adk) {
        const { runAdkTurn } = await loadAdkAgent();
        await runAdkTurn(this.inspector.store, session, { text });
      } else {
        await runTurn(this.inspector.store, session, text);
      }
    });
    if (sent) this.input.value = '';
  }

  private async remove(session: Session, complete: boolean): Promise<void> {
    const count = complete ? `its ${formatCount(session.events.length)} events` : 'all its events';
    const ok = await confirmDialog(
      'Delete session?',
      ['Session ', h('span', { class: 'mono' }, session.id), ` and ${count} will be removed. App and user state stay.`],
      'Delete',
    );
    if (!ok) return;
    try {
      await this.inspector.store.deleteSession({
        appName: session.appName,
        userId: session.userId,
        sessionId: session.id,
      });
      this.inspector.status.say(`Deleted session ${session.id}.`);
      const { user } = this.inspector.selection();
      await this.inspector.navigate({ app: session.appName, ...(user ? { user } : {}) });
    } catch (error) {
      this.inspector.status.error('Could not delete the session', error);
    }
  }
}
