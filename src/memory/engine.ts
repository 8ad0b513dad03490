/**
 * Memory on the store's database: what was added, searched through a
 * MiniSearch index per app and user held in this realm, rebuilt from the
 * records when the user's memory version moved (another tab wrote) and
 * updated in place for this engine's own writes. A query is a whole user
 * message of any length, never refused: its telling terms are picked
 * (`queryOf` with the entries' term frequencies), function words weigh less,
 * equal scores come newest first.
 */
import MiniSearch from 'minisearch';
import { DEFAULT_SEARCH_LIMIT } from '../core/limits.js';
import { parseQuery } from '../core/text/match.js';
import { byRank, type Doc, options, queryOf, scoreOf } from '../core/text/minisearch.js';
import { indexTerms } from '../core/text/tokenize.js';
import { ChangeFeed, type StoreChange } from '../database/changes.js';
import type { DatabaseOwner } from '../database/database.js';
import { bound, type Db, type Tx } from '../database/idb/index.js';
import { keyString } from '../database/keys.js';
import type { StoreSchema } from '../database/records/index.js';
import { type MemoryRecord, memoryId, NO_SESSION } from '../database/records/memory.js';
import type { MemoryBackend } from './protocol.js';
import type {
  AddEventsMemory,
  AddSessionMemory,
  DeleteMemoryRequest,
  MemoryHit,
  MemoryInput,
  MemoryUserKey,
  SearchMemoryRequest,
} from './schema.js';

interface Cached {
  version: number;
  index: MiniSearch<Doc>;
  records: Map<string, MemoryRecord>;
  /** How many entries hold each indexed term: a long query keeps its rarest terms (see `queryOf`). */
  frequency: Map<string, number>;
}

type MemoryTx = Tx<StoreSchema, 'memories' | 'memoryVersions'>;

const engines = new WeakMap<DatabaseOwner, MemoryEngine>();

export function memoryEngineFor(engine: DatabaseOwner): MemoryEngine {
  let found = engines.get(engine);
  if (!found) {
    found = new MemoryEngine(engine);
    engines.set(engine, found);
  }
  return found;
}

const userRange = (appName: string, userId: string) => bound([appName, userId], [appName, userId, []]);

export class MemoryEngine implements MemoryBackend {
  private readonly cache = new Map<string, Cached>();
  /** Other tabs' erases; this realm's arrive through `onCommitted`. */
  private feed: ChangeFeed | undefined;

  constructor(private readonly engine: DatabaseOwner) {
    engine.onCommitted((changes) => {
      for (const change of changes) this.heard(change);
    });
    engine.onClose(() => this.feed?.close());
  }

  /**
   * An erase drops the user's cached index at once: it holds the erased entries' text, which must
   * not stay in this realm's memory until the next search rebuilds it (the version moved).
   */
  private heard(change: StoreChange): void {
    if (change.type === 'erased') this.cache.delete(keyString([change.appName, change.userId]));
  }

  /**
   * Runs a write with the user's memory version read and bumped in the same
   * transaction; `apply` then updates this realm's index, if it was current.
   */
  private async write(
    { appName, userId }: MemoryUserKey,
    work: (tx: MemoryTx) => Promise<{ put: MemoryRecord[]; removed: string[] } | undefined>,
  ): Promise<void> {
    const key = keyString([appName, userId]);
    await this.engine.transact(async (db) => {
      const tx = db.transaction(['memories', 'memoryVersions'], 'readwrite');
      const versions = tx.objectStore('memoryVersions');
      const before = (await versions.get([appName, userId]))?.version ?? 0;
      const changed = await work(tx);
      if (!changed) {
        await tx.done;
        return;
      }
      versions.put({ appName, userId, version: before + 1 });
      await tx.done;
      const cached = this.cache.get(key);
      if (!cached || cached.version !== before) {
        this.cache.delete(key);
        return;
      }
      for (const id of changed.removed) this.drop(cached, id);
      for (const record of changed.put) {
        const id = memoryId(record.sessionId, record.eventId);
        this.drop(cached, id);
        cached.records.set(id, record);
        const doc = docOf(id, record);
        cached.index.add(doc);
        count(cached.frequency, doc.text, 1);
      }
      cached.version = before + 1;
    });
  }

  private drop(cached: Cached, id: string): void {
    const record = cached.records.get(id);
    if (!record) return;
    cached.records.delete(id);
    cached.index.discard(id);
    count(cached.frequency, docOf(id, record).text, -1);
  }

  async addSessionMemory(request: AddSessionMemory): Promise<void> {
    const { appName, userId, sessionId, entries } = request;
    await this.write(request, async (tx) => {
      const memories = tx.objectStore('memories');
      const range = bound([appName, userId, sessionId], [appName, userId, sessionId, []]);
      const old = await memories.getAllKeys(range);
      memories.delete(range);
      const put = entries.map((entry) => recordOf(appName, userId, sessionId, entry));
      for (const record of put) memories.put(record);
      return { put, removed: old.map((k) => memoryId(k[2], k[3])) };
    });
  }

  async addEventsMemory(request: AddEventsMemory): Promise<number> {
    const { appName, userId, entries, customMetadata } = request;
    const sessionId = request.sessionId ?? NO_SESSION;
    let added = 0;
    await this.write(request, async (tx) => {
      const memories = tx.objectStore('memories');
      const found = await Promise.all(entries.map((e) => memories.getKey([appName, userId, sessionId, e.eventId])));
      const seen = new Set<string>();
      const put: MemoryRecord[] = [];
      entries.forEach((entry, i) => {
        if (found[i] !== undefined || seen.has(entry.eventId)) return;
        seen.add(entry.eventId);
        put.push(recordOf(appName, userId, sessionId, entry, customMetadata));
      });
      for (const record of put) memories.put(record);
      added = put.length;
      return put.length > 0 ? { put, removed: [] } : undefined;
    });
    return added;
  }

  async deleteMemory(request: DeleteMemoryRequest): Promise<void> {
    const { appName, userId } = request;
    const parsed = parseId(request.memoryId);
    if (!parsed) return;
    await this.write(request, async (tx) => {
      const memories = tx.objectStore('memories');
      const key: [string, string, string, string] = [appName, userId, parsed[0], parsed[1]];
      if ((await memories.getKey(key)) === undefined) return undefined;
      memories.delete(key);
      return { put: [], removed: [request.memoryId] };
    });
  }

  async deleteMemories(request: MemoryUserKey): Promise<void> {
    const { appName, userId } = request;
    await this.write(request, async (tx) => {
      const memories = tx.objectStore('memories');
      const old = await memories.getAllKeys(userRange(appName, userId));
      if (old.length === 0) return undefined;
      memories.delete(userRange(appName, userId));
      return { put: [], removed: old.map((k) => memoryId(k[2], k[3])) };
    });
  }

  async searchMemory(request: SearchMemoryRequest): Promise<MemoryHit[]> {
    const { appName, userId, query } = request;
    const terms = parseQuery(scanned(query), { forms: true });
    if (terms.length === 0) return [];
    const cached = await this.engine.transact((db) => this.current(db, appName, userId));
    // A message of any length: the query keeps its terms that tell most (ADK's PRELOAD_MEMORY sends whole messages).
    const tree = queryOf(terms, 'any', (piece) => cached.frequency.get(piece) ?? 0);
    if (!tree) return [];
    const ranked = cached.index
      .search(tree)
      .map((r) => ({ id: r.id as string, score: scoreOf(r), t: r.t as number, key: r.id as string }))
      .sort(byRank);
    const hits: MemoryHit[] = [];
    for (const { id, score } of ranked) {
      const record = cached.records.get(id);
      if (!record) continue;
      hits.push({
        id,
        ...(record.sessionId !== NO_SESSION ? { sessionId: record.sessionId } : {}),
        eventId: record.eventId,
        ...(record.author !== undefined ? { author: record.author } : {}),
        timestamp: record.timestamp,
        content: record.content,
        ...(record.customMetadata !== undefined ? { customMetadata: record.customMetadata } : {}),
        score,
      });
      if (hits.length >= (request.limit ?? DEFAULT_SEARCH_LIMIT)) break;
    }
    return hits;
  }

  /** The user's index, read again only if the stored version moved since it was built. */
  private async current(db: Db<StoreSchema>, appName: string, userId: string): Promise<Cached> {
    const key = keyString([appName, userId]);
    const tx = db.transaction(['memories', 'memoryVersions'], 'readonly');
    const version = (await tx.objectStore('memoryVersions').get([appName, userId]))?.version ?? 0;
    const cached = this.cache.get(key);
    if (cached && cached.version === version) return cached;
    const records = await tx.objectStore('memories').getAll(userRange(appName, userId));
    const index = new MiniSearch<Doc>(options);
    const byId = new Map<string, MemoryRecord>();
    for (const record of records) byId.set(memoryId(record.sessionId, record.eventId), record);
    const docs = [...byId].map(([id, record]) => docOf(id, record));
    index.addAll(docs);
    const frequency = new Map<string, number>();
    for (const doc of docs) count(frequency, doc.text, 1);
    const built = { version, index, records: byId, frequency };
    this.cache.set(key, built);
    this.feed ??= new ChangeFeed(this.engine.dbName);
    if (this.feed.size === 0) this.feed.subscribe({}, (change) => this.heard(change));
    return built;
  }
}

function recordOf(
  appName: string,
  userId: string,
  sessionId: string,
  entry: MemoryInput,
  customMetadata?: Record<string, unknown>,
): MemoryRecord {
  return {
    appName,
    userId,
    sessionId,
    eventId: entry.eventId,
    ...(entry.author !== undefined ? { author: entry.author } : {}),
    timestamp: entry.timestamp,
    content: entry.content,
    ...(customMetadata !== undefined ? { customMetadata } : {}),
  };
}

const docOf = (id: string, record: MemoryRecord): Doc => ({
  id,
  text: record.content.parts.map((p) => p.text).join('\n'),
  t: record.timestamp,
});

/**
 * How much of a message memory reads for its terms: its first and last 32 K
 * characters (a pasted text is usually followed or preceded by the question).
 * Reading is about 1 MB/s, and PRELOAD_MEMORY asks on every model request.
 */
export const MEMORY_QUERY_SCAN = 65_536;

const scanned = (query: string): string =>
  query.length <= MEMORY_QUERY_SCAN
    ? query
    : `${query.slice(0, MEMORY_QUERY_SCAN / 2)}\n${query.slice(-MEMORY_QUERY_SCAN / 2)}`;

function count(frequency: Map<string, number>, text: string, delta: 1 | -1): void {
  for (const term of new Set(indexTerms(text))) {
    const n = (frequency.get(term) ?? 0) + delta;
    if (n > 0) frequency.set(term, n);
    else frequency.delete(term);
  }
}

function parseId(id: string): [string, string] | undefined {
  try {
    const parsed: unknown = JSON.parse(id);
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === 'string')) {
      return parsed as [string, string];
    }
  } catch {
    // Not an id this store gave out: nothing to delete.
  }
  return undefined;
}
