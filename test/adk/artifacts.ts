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
import { InvalidInputError } from '../../src/index.js';
import { call, type RecordedRequest, ScriptedModel, say } from './scripted-model.js';

/** An artifact service under test, and how to let it go. */
export interface ArtifactServiceUnderTest {
  service: BaseArtifactService;
  close(): Promise<void>;
}

const opt = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
/** A record without the fields `fc.record` drew as `undefined`, as a caller would write it. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** MIME types as ADK takes them: RFC 9110 parameters, with and without spaces, quoted values. */
const mimeType = fc.constantFrom(
  'image/png',
  'text/html; charset=utf-8',
  'text/plain;charset=utf-8',
  'multipart/mixed ; boundary="a b;c"',
  'application/json;  q=0.5;v="\\"x\\""',
);
/** Base64 as callers write it: standard or URL-safe, padded or not; the store must give it back as saved. */
const base64 = fc.tuple(fc.uint8Array({ maxLength: 16 }), fc.boolean(), fc.boolean()).map(([bytes, url, unpadded]) => {
  let text = btoa(String.fromCharCode(...bytes));
  if (url) text = text.replace(/\+/g, '-').replace(/\//g, '_');
  return unpadded ? text.replace(/=+$/, '') : text;
});
/** Fields a Part may carry besides its payload: ADK's own, and unknown ones of a later version. */
const extras = fc.record(
  {
    thought: fc.boolean(),
    thoughtSignature: fc.base64String({ maxLength: 8 }),
    videoMetadata: fc.record({ startOffset: fc.constantFrom('1s', '2.5s'), fps: fc.nat(30) }),
    futureField: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const displayName = opt(fc.constantFrom('', 'pic.png', 'é'));
// Empty text is left out: ADK 2.0.0 refuses `{ text: '' }` by accident (a deliberate difference, see README).
const part = fc.oneof(
  fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), extras).map(([text, more]) => ({ text, ...more })),
  fc
    .tuple(base64, opt(mimeType), displayName, extras)
    .map(([data, mimeType, displayName, more]) => ({ inlineData: defined({ data, mimeType, displayName }), ...more })),
  fc.tuple(opt(mimeType), displayName, extras).map(([mimeType, displayName, more]) => ({
    fileData: defined({ fileUri: 'gs://bucket/a.pdf', mimeType, displayName }),
    ...more,
  })),
);
// A lone surrogate ADK refuses (its URIError); U+0085, a C1 control, only this store refuses (see README).
const scope = fc.record({
  appName: fc.constantFrom('app', 'other'),
  userId: fc.constantFrom('ada', 'bob'),
  sessionId: fc.oneof({ arbitrary: fc.constantFrom('s1', 's2', 'user'), weight: 8 }, fc.constant('s\uD800')),
});
const filename = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'a/b', 'b', 'user:a', 'user:a/b', 'Z', 'é'), weight: 8 },
  fc.constantFrom('half\uD800.txt', '\uDC00', 'a\u0085'),
);
/** Versions asked for: ADK finds nothing at a negative, fractional or missing one. */
const version = opt(fc.oneof(fc.nat(3), fc.integer({ min: -3, max: -1 }), fc.double({ min: -2, max: 3 })));
const customMetadata = opt(fc.record({ k: fc.string({ maxLength: 3 }) }));
const operation = fc.oneof(
  fc.record({ op: fc.constant('save'), scope, filename, part, customMetadata }),
  fc.record({ op: fc.constant('load'), scope, filename, version }),
  fc.record({ op: fc.constant('delete'), scope, filename }),
  fc.record({ op: fc.constant('keys'), scope }),
  fc.record({ op: fc.constant('versions'), scope, filename }),
  fc.record({ op: fc.constant('artifactVersions'), scope, filename }),
  fc.record({ op: fc.constant('version'), scope, filename, version }),
);
type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

/**
 * What only this store refuses (README, deliberate differences): a control character in a name, and
 * a lone surrogate in an id even where ADK never encodes it (a `user:` name's path has no session).
 */
const refusedHere = (o: Operation): boolean =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  ('filename' in o && /[\u0000-\u001f\u007f-\u009f]/.test(o.filename)) ||
  Object.values(o.scope).some((id) => /\p{Cs}/u.test(id));

async function apply(service: BaseArtifactService, o: Operation): Promise<unknown> {
  switch (o.op) {
    case 'save':
      return service.saveArtifact({
        ...o.scope,
        filename: o.filename,
        artifact: structuredClone(o.part),
        ...(o.customMetadata ? { customMetadata: structuredClone(o.customMetadata) } : {}),
      });
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
    // ADK records less per version (see README): the number and customMetadata are compared.
    case 'artifactVersions':
      return (await service.listArtifactVersions({ ...o.scope, filename: o.filename })).map((v) => [
        v.version,
        v.customMetadata,
      ]);
    case 'version': {
      const found = await service.getArtifactVersion({
        ...o.scope,
        filename: o.filename,
        ...(o.version !== undefined ? { version: o.version } : {}),
      });
      return found && [found.version, found.customMetadata];
    }
  }
}

/** `apply`'s outcome: its value, or the error it threw (ADK throws some synchronously). */
async function settle(service: BaseArtifactService, o: Operation): Promise<{ value: unknown } | { error: unknown }> {
  try {
    return { value: await apply(service, o) };
  } catch (error) {
    return { error };
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
            const said = JSON.stringify(o);
            const got = await settle(ours, o);
            // Whatever this store refuses, it refuses typed, and then ADK's service is left as it is.
            if ('error' in got) expect(got.error, said).toBeInstanceOf(InvalidInputError);
            if (refusedHere(o)) {
              expect('error' in got, said).toBe(true);
              continue;
            }
            const expected = await settle(reference, o);
            if ('error' in expected) expect('error' in got, `${said}: ADK threw ${expected.error}`).toBe(true);
            else expect(got, said).toEqual(expected);
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

    it('differs from ADK where README says so: empty text stored, a load is a copy, odd names refused', async () => {
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
      // Bytes saved without a type load without one, as in ADK; the version records the default.
      const untyped = { inlineData: { data: 'AQ' } };
      for (const service of [reference, ours]) await service.saveArtifact({ ...key, filename: 'u', artifact: untyped });
      expect(await ours.loadArtifact({ ...key, filename: 'u' })).toEqual(untyped);
      expect((await ours.getArtifactVersion({ ...key, filename: 'u' }))?.mimeType).toBe('application/octet-stream');
      // A C1 control in a name, and a lone surrogate in a session id even for a `user:` name.
      const c1 = { ...key, filename: 'a\u0085', artifact: { text: 'x' } };
      expect(await reference.saveArtifact(c1)).toBe(0);
      await expect(ours.saveArtifact(c1)).rejects.toBeInstanceOf(InvalidInputError);
      const shared = { ...key, sessionId: 's\uD800', filename: 'user:n', artifact: { text: 'x' } };
      expect(await reference.saveArtifact(shared)).toBe(0);
      await expect(ours.saveArtifact(shared)).rejects.toBeInstanceOf(InvalidInputError);
    });
  });
}
