/** Change filters: `{}` hears every app; narrower filters hear only their app, user or session. */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexedDbSessionService, type StoreChange } from '../../src/index.js';

let n = 0;
describe('subscribe filters', () => {
  let writer: IndexedDbSessionService;
  let reader: IndexedDbSessionService;
  afterEach(async () => {
    await writer.close();
    await reader.close();
  });

  it('an empty filter hears changes of every app; an app filter only its own', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `changes-${n++}`;
    writer = new IndexedDbSessionService({ indexedDB, dbName });
    reader = new IndexedDbSessionService({ indexedDB, dbName });
    const all: StoreChange[] = [];
    const chatOnly: StoreChange[] = [];
    const adaOnly: StoreChange[] = [];
    reader.subscribe({}, (c) => all.push(c));
    reader.subscribe({ appName: 'chat' }, (c) => chatOnly.push(c));
    reader.subscribe({ appName: 'chat', userId: 'ada' }, (c) => adaOnly.push(c));
    await writer.createSession({ appName: 'chat', userId: 'ada', sessionId: 's1' });
    await writer.createSession({ appName: 'chat', userId: 'bob', sessionId: 's2' });
    await writer.createSession({ appName: 'mail', userId: 'ada', sessionId: 's3' });
    await expect.poll(() => all.length).toBe(3);
    expect(all.map((c) => `${c.appName}/${c.userId}/${c.sessionId}`)).toEqual([
      'chat/ada/s1',
      'chat/bob/s2',
      'mail/ada/s3',
    ]);
    expect(chatOnly.map((c) => c.sessionId)).toEqual(['s1', 's2']);
    expect(adaOnly.map((c) => c.sessionId)).toEqual(['s1']);
  });
});
