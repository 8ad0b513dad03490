/**
 * Live changes. Every engine posts each committed change on a BroadcastChannel
 * named for its database; every subscriber, in this tab or another, listens
 * there. One path for all: a tab's own writes and other tabs' arrive alike.
 */
/** A committed change, told to subscribers in this tab and others. */
export interface StoreChange {
  /**
   * What happened to the session: created (or imported), events appended, events erased (`erase`),
   * deleted, or a draft of a reply begun, written, taken over or dropped (`drafted`: the session
   * itself, its events and its state are unchanged).
   */
  type: 'created' | 'appended' | 'erased' | 'deleted' | 'drafted';
  /** The session's app. */
  appName: string;
  /** The session's user. */
  userId: string;
  /** The session's id. */
  sessionId: string;
  /** The session's revision after the change (0 for a new session; -1 once deleted, and in `drafted` changes, which leave it as it was). */
  revision: number;
  /** The session's `lastUpdateTime` after the change (epoch ms). */
  lastUpdateTime: number;
  /** Ids of the events the change stored (appends) or erased (erases). */
  eventIds: string[];
  /**
   * Whether the change wrote the app's (`app:`) or the user's (`user:`) state.
   * Absent in notices from releases before it: then either may have changed.
   */
  scopes?: { app: boolean; user: boolean };
  /** The draft the change wrote (`drafted`), or the one an append finished (`appended`). */
  draftId?: string;
}

export const channelName = (dbName: string): string => `idb-adk-sessions:${dbName}`;

/** Which changes to hear: every change (`{}`), an app's, one user's sessions, or one session's. */
export interface ChangeFilter {
  /** Only changes to this app's sessions and state. */
  appName?: string;
  /** Only changes to this user's sessions and state (with `appName`). */
  userId?: string;
  /** Only changes to this session (with `appName` and `userId`). */
  sessionId?: string;
}

/** Called with each committed change a `subscribe` filter matches. */
export type ChangeListener = (change: StoreChange) => void;

function matches(filter: ChangeFilter, change: StoreChange): boolean {
  return (
    (filter.appName === undefined || filter.appName === change.appName) &&
    (filter.userId === undefined || filter.userId === change.userId) &&
    (filter.sessionId === undefined || filter.sessionId === change.sessionId)
  );
}

/** Subscriptions over one database's channel. The channel is open only while someone listens. */
export class ChangeFeed {
  private channel: BroadcastChannel | undefined;
  private readonly subscriptions = new Set<{ filter: ChangeFilter; listener: ChangeListener }>();

  private dbName: string | undefined;
  private closed = false;

  /** `dbName` may arrive later (a client learns it from the worker's hello); until then, subscriptions wait. */
  constructor(dbName: string | Promise<string>) {
    if (typeof dbName === 'string') this.dbName = dbName;
    else
      dbName.then(
        (name) => {
          this.dbName = name;
          if (this.subscriptions.size > 0) this.listen();
        },
        () => {},
      );
  }

  private listen(): void {
    if (this.channel || this.closed || this.dbName === undefined || typeof BroadcastChannel === 'undefined') return;
    this.channel = unref(new BroadcastChannel(channelName(this.dbName)));
    this.channel.onmessage = (event: MessageEvent<StoreChange | StoreChange[]>) => {
      const { data } = event;
      if (Array.isArray(data)) for (const change of data) this.deliver(change);
      else this.deliver(data);
    };
  }

  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void {
    const subscription = { filter: { ...filter }, listener };
    this.subscriptions.add(subscription);
    this.listen();
    return () => {
      this.subscriptions.delete(subscription);
      if (this.subscriptions.size === 0) {
        this.channel?.close();
        this.channel = undefined;
      }
    };
  }

  private deliver(change: StoreChange): void {
    for (const { filter, listener } of [...this.subscriptions]) {
      if (!matches(filter, change)) continue;
      try {
        listener(change);
      } catch (error) {
        // One listener's failure must not keep the change from the others.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  get size(): number {
    return this.subscriptions.size;
  }

  /** Drops every subscription for good. */
  close(): void {
    this.closed = true;
    this.subscriptions.clear();
    this.channel?.close();
    this.channel = undefined;
  }
}

/** Posts an engine's committed changes to its database's channel. */
export class ChangePublisher {
  private channel: BroadcastChannel | undefined;

  constructor(private readonly dbName: string) {}

  /**
   * One message for all the changes of one commit: a group of a hundred appends
   * costs one post, not a hundred. A single change goes as itself, the form every
   * release of the feed reads.
   */
  publish(changes: readonly StoreChange[]): void {
    if (typeof BroadcastChannel === 'undefined' || changes.length === 0) return;
    this.channel ??= unref(new BroadcastChannel(channelName(this.dbName)));
    this.channel.postMessage(changes.length === 1 ? changes[0] : changes);
  }

  close(): void {
    this.channel?.close();
    this.channel = undefined;
  }
}

/**
 * In Node an open BroadcastChannel keeps the process alive; the store's channels
 * must not (a script that never calls `close()`, as ADK code never does, has to exit).
 */
function unref(channel: BroadcastChannel): BroadcastChannel {
  (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  return channel;
}
