/**
 * TEMPORARY stand-in for the transfer branch's export/import, so the demo's
 * Export/Import compile and their end-to-end tests run before that branch
 * lands. Same signatures; the lead replaces this file with the real one.
 *
 * File format: `{format: 'adk-sessions', version: 1, exportedAt, sessions: Session[]}`,
 * each session complete (merged state, every event).
 */
import { InvalidInputError } from '../errors.js';
import { isPlainObject } from '../json.js';
import type { Session, SessionCatalog, SessionService } from '../types.js';

type Store = SessionService & SessionCatalog;

export interface TransferProgress {
  done: number;
  total: number;
}

export interface ExportOptions {
  /** Only this app's sessions; every app when omitted. */
  appName?: string;
  /** Only this user's sessions (needs `appName`). */
  userId?: string;
  onProgress?: (progress: TransferProgress) => void;
}

export interface ImportOptions {
  onProgress?: (progress: TransferProgress) => void;
  /** What to do with a session whose id already exists for its app and user. Default `'skip'`. */
  onConflict?: 'skip' | 'fail';
}

export interface ImportResult {
  sessions: number;
  events: number;
  skipped: number;
}

export interface ExportFile {
  format: 'adk-sessions';
  version: 1;
  exportedAt: number;
  sessions: Session[];
}

export async function exportSessions(store: Store, options: ExportOptions = {}): Promise<ExportFile> {
  const apps = options.appName !== undefined ? [options.appName] : (await store.listApps()).map((a) => a.appName);
  const listed: Session[] = [];
  for (const appName of apps) {
    const page = await store.listSessions({
      appName,
      ...(options.userId !== undefined ? { userId: options.userId } : {}),
      order: 'asc',
    });
    listed.push(...page.sessions);
  }
  const sessions: Session[] = [];
  for (const s of listed) {
    const full = await store.getSession({ appName: s.appName, userId: s.userId, sessionId: s.id });
    if (full) sessions.push(full);
    options.onProgress?.({ done: sessions.length, total: listed.length });
  }
  return { format: 'adk-sessions', version: 1, exportedAt: Date.now(), sessions };
}

export async function exportSessionsToBlob(store: Store, options: ExportOptions = {}): Promise<Blob> {
  return new Blob([JSON.stringify(await exportSessions(store, options))], { type: 'application/json' });
}

function bad(why: string): never {
  throw new InvalidInputError(`importSessions: ${why}`);
}

function checkFile(data: unknown): Session[] {
  if (!isPlainObject(data)) bad('the file is not a JSON object');
  if (data.format !== 'adk-sessions') bad('format: must be "adk-sessions"');
  if (data.version !== 1) bad('version: must be 1');
  if (!Array.isArray(data.sessions)) bad('sessions: must be an array');
  data.sessions.forEach((s: unknown, i: number) => {
    if (!isPlainObject(s)) bad(`sessions[${i}]: must be an object`);
    for (const field of ['id', 'appName', 'userId'] as const) {
      if (typeof s[field] !== 'string') bad(`sessions[${i}].${field}: must be a string`);
    }
    if (!isPlainObject(s.state)) bad(`sessions[${i}].state: must be an object`);
    if (!Array.isArray(s.events)) bad(`sessions[${i}].events: must be an array`);
    if (typeof s.lastUpdateTime !== 'number') bad(`sessions[${i}].lastUpdateTime: must be a number`);
  });
  return data.sessions as Session[];
}

async function readText(source: Blob | string | ReadableStream): Promise<string> {
  if (typeof source === 'string') return source;
  if (source instanceof Blob) return source.text();
  return new Response(source).text();
}

export async function importSessions(
  store: Store,
  source: Blob | string | ReadableStream,
  options: ImportOptions = {},
): Promise<ImportResult> {
  let data: unknown;
  try {
    data = JSON.parse(await readText(source));
  } catch {
    bad('the file is not valid JSON');
  }
  // Oldest first, so the shared scopes end with the values of the session that wrote them last.
  const sessions = [...checkFile(data)].sort((a, b) => a.lastUpdateTime - b.lastUpdateTime);
  const result: ImportResult = { sessions: 0, events: 0, skipped: 0 };
  for (const s of sessions) {
    const key = { appName: s.appName, userId: s.userId, sessionId: s.id };
    if (await store.getSession({ ...key, config: { numRecentEvents: 0 } })) {
      if (options.onConflict === 'fail') bad(`session "${s.id}" already exists`);
      result.skipped++;
    } else {
      const created = await store.createSession({ ...key, state: s.state });
      await Promise.all(s.events.map((event) => store.appendEvent({ session: created, event })));
      result.sessions++;
      result.events += s.events.length;
    }
    options.onProgress?.({ done: result.sessions + result.skipped, total: sessions.length });
  }
  return result;
}
