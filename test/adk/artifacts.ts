/**
 * The store's artifacts against ADK's own `InMemoryArtifactService`: random
 * operation sequences give the same answers, and ADK's Runner with a tool that
 * saves and one that loads artifacts (through `Context.saveArtifact` /
 * `loadArtifact`) behaves the same on both. Run in Node and in Chromium.
 */
import {
  type Event as AdkEvent,
  type BaseArtifactService,
  FunctionTool,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  Runner,
} from '@google/adk';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { call, type RecordedRequest, ScriptedModel, say } from './scripted-model.js';

/** An artifact service under test, and how to let it go. */
export interface ArtifactServiceUnderTest {
  service: BaseArtifactService;
  close(): Promise<void>;
}

// Empty text is left out: ADK 2.0.0 refuses `{ text: '' }` by accident (a deliberate difference, see README).
const part = fc.oneof(
  fc.string({ minLength: 1, maxLength: 8 }).map((text) => ({ text })),
  fc
    .uint8Array({ maxLength: 16 })
    .map((bytes) => ({ inlineData: { mimeType: 'image/png', data: btoa(String.fromCharCode(...bytes)) } })),
  fc.constantFrom({ fileData: { fileUri: 'gs://bucket/a.pdf', mimeType: 'application/pdf' } }),
);
const scope = fc.record({
  appName: fc.constantFrom('app', 'other'),
  userId: fc.constantFrom('ada', 'bob'),
  sessionId: fc.constantFrom('s1', 's2', 'user'),
});
const filename = fc.constantFrom('a', 'a/b', 'b', 'user:a', 'user:a/b', 'Z', 'é');
const operation = fc.oneof(
  fc.record({ op: fc.constant('save'), scope, filename, part }),
  fc.record({ op: fc.constant('load'), scope, filename, version: fc.option(fc.nat(3), { nil: undefined }) }),
  fc.record({ op: fc.constant('delete'), scope, filename }),
  fc.record({ op: fc.constant('keys'), scope }),
  fc.record({ op: fc.constant('versions'), scope, filename }),
);
type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

async function apply(service: BaseArtifactService, o: Operation): Promise<unknown> {
  switch (o.op) {
    case 'save':
      return service.saveArtifact({ ...o.scope, filename: o.filename, artifact: structuredClone(o.part) });
    case 'load':
      return service.loadArtifact({
        ...o.scope,
        filename: o.filename,
        ...(o.version !== undefined ? { version: o.version } : {}),
      });
    case 'delete':
      return service.deleteArtifact({ ...o.scope, filename: o.filename });
    case 'keys':
      return service.listArtifactKeys(o.scope);
    case 'versions':
      return service.listVersions({ ...o.scope, filename: o.filename });
  }
}

/** The differential suite against `make()`'s service, a fresh one per call. */
export function describeArtifactDifferential(label: string, open: () => ArtifactServiceUnderTest): void {
  const closers: (() => Promise<void>)[] = [];
  const make = (): BaseArtifactService => {
    const { service, close } = open();
    closers.push(close);
    return service;
  };
  describe(`artifacts ${label} vs ADK InMemoryArtifactService`, () => {
    afterEach(async () => {
      for (const close of closers.splice(0)) await close();
    });

    it('answers random operation sequences the same way', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { maxLength: 30 }), async (operations) => {
          const reference = new InMemoryArtifactService();
          const ours = make();
          for (const o of operations) {
            expect(await apply(ours, o), JSON.stringify(o)).toEqual(await apply(reference, o));
          }
        }),
        { numRuns: 40 },
      );
      // 40 runs of up to 30 operations each through a worker: ~13 s in a browser alone, more than
      // the default 30 s on a loaded 2-core machine running two engines at once.
    }, 120_000);

    it("drives ADK's Runner the same: a tool saves artifacts, another loads them", async () => {
      const play = async (artifactService: BaseArtifactService) => {
        const log: RecordedRequest[] = [];
        const saveFiles = new FunctionTool({
          name: 'save_files',
          description: 'Saves a note and a picture',
          execute: async (_input, context) => ({
            note: await context?.saveArtifact('notes/today.txt', { text: 'remember the milk' }),
            picture: await context?.saveArtifact('user:avatar.png', {
              inlineData: { mimeType: 'image/png', data: btoa('\x89PNG') },
            }),
          }),
        });
        const loadFiles = new FunctionTool({
          name: 'load_files',
          description: 'Loads them back',
          execute: async (_input, context) => ({
            note: await context?.loadArtifact('notes/today.txt'),
            picture: await context?.loadArtifact('user:avatar.png', 0),
            missing: (await context?.loadArtifact('nothing')) ?? null,
            names: await context?.listArtifacts(),
          }),
        });
        const model = new ScriptedModel(
          'scripted',
          [call('c1', 'save_files'), say('saved'), call('c2', 'load_files'), say('loaded')],
          log,
          () => {},
        );
        const agent = new LlmAgent({ name: 'assistant', model, tools: [saveFiles, loadFiles] });
        const sessionService = new InMemorySessionService();
        const runner = new Runner({ appName: 'app', agent, sessionService, artifactService });
        await sessionService.createSession({ appName: 'app', userId: 'ada', sessionId: 's1' });
        const events: AdkEvent[] = [];
        // The first message carries a file: the Runner stores it as an artifact and leaves a text part in its place.
        const upload = { inlineData: { mimeType: 'image/png', data: btoa('upload'), displayName: 'upload.png' } };
        for (const parts of [[{ text: 'save them' }, upload], [{ text: 'load them' }]]) {
          for await (const event of runner.runAsync({
            userId: 'ada',
            sessionId: 's1',
            newMessage: { role: 'user', parts },
            runConfig: { saveInputBlobsAsArtifacts: true },
          })) {
            events.push(event);
          }
        }
        const session = await sessionService.getSession({ appName: 'app', userId: 'ada', sessionId: 's1' });
        return {
          stored: session?.events.map((e) => e.content),
          uploaded: await artifactService.loadArtifact({
            appName: 'app',
            userId: 'ada',
            sessionId: 's1',
            filename: 'upload.png',
          }),
          deltas: events.map((e) => e.actions.artifactDelta),
          responses: events.flatMap((e) => e.content?.parts?.flatMap((p) => p.functionResponse?.response ?? []) ?? []),
          keysOtherSession: await artifactService.listArtifactKeys({ appName: 'app', userId: 'ada', sessionId: 's2' }),
        };
      };
      const reference = await play(new InMemoryArtifactService());
      const ours = await play(make());
      expect(ours).toEqual(reference);
      // The scenario did what it claims: both saves recorded, both loads answered.
      expect(ours.deltas).toContainEqual({ 'notes/today.txt': 0, 'user:avatar.png': 0 });
      expect(ours.responses[1]).toMatchObject({ note: { text: 'remember the milk' }, missing: null });
      expect(ours.keysOtherSession).toEqual(['user:avatar.png']);
      expect(ours.uploaded).toEqual({
        inlineData: { mimeType: 'image/png', data: btoa('upload'), displayName: 'upload.png' },
      });
      expect(JSON.stringify(ours.stored)).toContain('[Uploaded Artifact: \\"upload.png\\"]');
    });

    it('differs from ADK where README says so: empty text is stored, and a load is a copy', async () => {
      const key = { appName: 'app', userId: 'ada', sessionId: 's1' };
      const reference = new InMemoryArtifactService();
      const ours = make();
      await expect(reference.saveArtifact({ ...key, filename: 'e', artifact: { text: '' } })).rejects.toThrow();
      expect(await ours.saveArtifact({ ...key, filename: 'e', artifact: { text: '' } })).toBe(0);
      expect(await ours.loadArtifact({ ...key, filename: 'e' })).toEqual({ text: '' });
      for (const service of [reference, ours])
        await service.saveArtifact({ ...key, filename: 'c', artifact: { text: 'a' } });
      for (const service of [reference, ours]) {
        const loaded = await service.loadArtifact({ ...key, filename: 'c' });
        if (loaded) loaded.text = 'changed by the caller';
      }
      expect(await reference.loadArtifact({ ...key, filename: 'c' })).toEqual({ text: 'changed by the caller' });
      expect(await ours.loadArtifact({ ...key, filename: 'c' })).toEqual({ text: 'a' });
      // Text, bytes: ADK records no mimeType; the store does.
      expect((await reference.getArtifactVersion({ ...key, filename: 'c' }))?.mimeType).toBeUndefined();
      expect((await ours.getArtifactVersion({ ...key, filename: 'c' }))?.mimeType).toBe('text/plain');
    });
  });
}
