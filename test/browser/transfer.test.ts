/**
 * Export and import through a dedicated-worker client in a real browser: the
 * export file round-trips, write progress and typed errors cross the worker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  exportSessionsToBlob,
  type ImportProgress,
  InvalidInputError,
  importSessions,
  type SessionStoreClient,
} from '../../src/index.js';
import { event, exportText, seed } from '../transfer/fixture.js';
import { dedicatedClient, deleteDatabase, uniqueDbName } from './helpers.js';

const opened: { client: SessionStoreClient; dbName: string }[] = [];
function open(): SessionStoreClient {
  const dbName = uniqueDbName('transfer');
  const { client } = dedicatedClient(dbName);
  opened.push({ client, dbName });
  return client;
}
afterEach(async () => {
  for (const { client, dbName } of opened.splice(0)) {
    await client.close();
    await deleteDatabase(dbName);
  }
});

describe('export and import through a dedicated worker', () => {
  it('round-trips a Blob export into an empty database, byte for byte', async () => {
    const source = open();
    await seed(source);
    const file = await exportSessionsToBlob(source, { exportedAt: 0 });
    expect(file.type).toBe('application/json');
    const target = open();
    const reports: ImportProgress[] = [];
    expect(await importSessions(target, file, { onProgress: (p) => reports.push(p) })).toEqual({
      sessions: 5,
      events: 8,
      skipped: 0,
    });
    expect(reports.at(-1)).toEqual({ bytes: file.size, totalBytes: file.size, sessions: 5, totalSessions: 5 });
    expect(await exportText(target)).toBe(await file.text());
    const s1 = await target.getSession({ appName: 'chat', userId: 'ada', sessionId: 's1' });
    expect(Object.getOwnPropertyDescriptor(s1?.state, '__proto__')?.value).toEqual({ polluted: true });
    await target.appendEvent({ session: s1 as NonNullable<typeof s1>, event: event('after-1u', { 'user:back': 1 }) });
    expect((await target.getSession({ appName: 'chat', userId: 'ada', sessionId: 's2' }))?.state['user:back']).toBe(1);
  });

  it('reports write progress from inside the worker and keeps error classes across it', async () => {
    const target = open();
    const sessions = Array.from({ length: 300 }, (_, i) => ({
      id: `b${i}`,
      appName: 'bulk',
      userId: `u${i % 3}`,
      state: { i, 'app:seen': i },
      events: [event(`b${i}-0u`, { i }), event(`b${i}-1a`, { 'user:last': i })],
      lastUpdateTime: 1_900_000_000_000 + i,
    }));
    const written: number[] = [];
    await importSessions(target, JSON.stringify(sessions), { onProgress: (p) => written.push(p.sessions) });
    expect(written.filter((n) => n > 0 && n < 300).length).toBeGreaterThan(10);
    expect(written).toEqual([...written].sort((a, b) => a - b));
    expect((await target.listSessions({ appName: 'bulk' })).totalItems).toBe(300);
    expect(await target.getAppState({ appName: 'bulk' })).toEqual({ seen: 299 });

    const before = await exportText(target);
    await expect(importSessions(target, JSON.stringify(sessions.slice(0, 2)))).rejects.toBeInstanceOf(
      AlreadyExistsError,
    );
    const bad = JSON.stringify([{ ...sessions[0], id: 'new', events: [{ id: 'x', timestamp: 'now' }] }]);
    await expect(importSessions(target, bad)).rejects.toBeInstanceOf(InvalidInputError);
    expect(await exportText(target)).toBe(before);
  });
});
