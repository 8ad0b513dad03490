/**
 * Events leaving the store: compaction events go through an export and an import (JSON and
 * archive) exactly; ADK's internal `customMetadata` keys (`__adk_internal_*`) stay in storage and
 * in `getSession`, and are left out of exports and of the AI SDK adapter's messages.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import { eventsToMessages, eventToMessage, messageToEvent } from '../../../src/ai-sdk/index.js';
import {
  type Event,
  exportArchiveToBlob,
  exportSessionsToBlob,
  INTERNAL_METADATA_PREFIX,
  IndexedDbSessionService,
  importArchive,
  importSessions,
} from '../../../src/index.js';
import { jsCompaction, key, plain, pyCompaction, T } from '../../contract/compaction.js';

let n = 0;
const open = () => new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `leaving-${n++}` });

const internal = `${INTERNAL_METADATA_PREFIX}restored_event`;
const withInternal: Event = { ...plain(3), customMetadata: { [internal]: true, mine: 'kept' } };
const onlyInternal: Event = { ...plain(4), customMetadata: { [internal]: true } };

describe('events leaving the store', () => {
  const source = open();
  afterAll(() => source.close());
  const events = [
    plain(0),
    jsCompaction('js', T + 1000, T, T, { isScratchpad: true }),
    pyCompaction('py', T + 2000, T, T + 1000),
    withInternal,
    onlyInternal,
  ];

  it('getSession returns the internal keys as stored (ADK reads them back)', async () => {
    const session = await source.createSession(key('s'));
    await source.appendEvents({ session, events });
    expect((await source.getSession(key('s')))?.events).toEqual(events);
  });

  for (const [format, exportTo, importFrom] of [
    ['JSON', exportSessionsToBlob, importSessions],
    ['archive', exportArchiveToBlob, importArchive],
  ] as const) {
    it(`${format === 'JSON' ? 'a JSON' : 'an archive'} export carries compaction events exactly and no internal key`, async () => {
      const blob = await exportTo(source);
      const text = format === 'JSON' ? await blob.text() : '';
      if (format === 'JSON') expect(text).not.toContain(INTERNAL_METADATA_PREFIX);
      const target = open();
      await importFrom(target, blob as never);
      const imported = (await target.getSession(key('s')))?.events;
      expect(imported?.slice(0, 3)).toEqual(events.slice(0, 3));
      expect(imported?.[3]?.customMetadata).toEqual({ mine: 'kept' });
      expect(imported?.[4]).not.toHaveProperty('customMetadata');
      expect(JSON.stringify(imported)).not.toContain(INTERNAL_METADATA_PREFIX);
      await target.close();
    });
  }

  it('the AI SDK adapter shows no internal key, from an ADK event or one it stored itself', () => {
    const stored = messageToEvent({ id: 'm', role: 'user', parts: [{ type: 'text', text: 'hi' }], metadata: { a: 1 } });
    stored.customMetadata = { ...stored.customMetadata, [internal]: true };
    const shown = [eventToMessage(stored), ...eventsToMessages([withInternal, onlyInternal, stored])];
    expect(JSON.stringify(shown)).not.toContain(INTERNAL_METADATA_PREFIX);
    expect(shown[0]).toMatchObject({ id: 'm', metadata: { a: 1 } });
  });
});
