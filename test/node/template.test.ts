/**
 * `injectSessionState`: ADK's instruction templating without ADK. Checked
 * against ADK 2.0.0's own implementation on a table of templates, then on the
 * points where it deliberately differs (own keys only) and on its errors.
 */
import { injectSessionState as adkInject } from '@google/adk/dist/web/agents/instructions.js';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, injectSessionState, MissingTemplateKeyError, SessionStoreError } from '../../src/index.js';

const state: Record<string, unknown> = {
  name: 'Ada',
  name2: 'Lovelace',
  count: 3,
  zero: 0,
  ratio: 0.5,
  flag: true,
  off: false,
  nothing: null,
  empty: '',
  obj: { a: 1, b: [1, 'two'], c: { d: null } },
  list: [1, 'x', { y: true }],
  _under: 'u',
  echo: '{name}',
  'app:plan': 'pro',
  'user:lang': 'en',
  'temp:draft': 'draft text',
};

const artifacts: Record<string, unknown> = {
  notes: { text: 'the notes' },
  plain: 'a string artifact',
  data: { inlineData: { mimeType: 'application/json', data: 'e30=' } },
};

/** ADK's implementation, called the way an LlmAgent calls it, over the same state and artifacts. */
async function viaAdk(template: string, withArtifacts: boolean): Promise<string> {
  const artifactService = withArtifacts
    ? { loadArtifact: async ({ filename }: { filename: string }) => artifacts[filename] }
    : undefined;
  return adkInject(template, { invocationContext: { session: { state }, artifactService } } as never);
}

function viaUs(template: string, withArtifacts: boolean): string {
  return injectSessionState(template, state, withArtifacts ? { artifact: (name) => artifacts[name] } : {});
}

const templates = [
  '',
  'no placeholders at all',
  'Hello {name}',
  '{name}{name2}',
  '{name?}',
  '{missing?}',
  '[{missing?}]',
  '{ name }',
  '{  name?  }',
  '{name ?}',
  '{{name}}',
  '{{{name}}}',
  '{{name}',
  '{name}}',
  '{app:plan} {user:lang} {temp:draft}',
  '{app:missing?}{user:missing?}{temp:missing?}',
  '{foo:bar}',
  '{app:x:y}',
  '{app:}',
  '{:name}',
  '{not a name}',
  '{a.b}',
  '{1abc}',
  '{ñame}',
  '{}',
  '{?}',
  '{ }',
  '{"json": 1}',
  'nested {"a": {"b": 1}} braces',
  'code: function f() { return 1; }',
  '{count} {zero} {ratio} {flag} {off} {nothing} [{empty}]',
  '{obj} {list}',
  '{_under}',
  '{echo}',
  '{name?} then {name}',
  'multi\nline {name}\n{user:lang?}',
  '{artifact.notes} / {artifact.plain} / {artifact.data}',
  '{artifact.missing?}',
  '{artifact.notes?}',
];

const failing = [
  '{missing}',
  'a {name} b {missing} c {other}',
  '{app:missing}',
  '{missing?} {missing}',
  '{artifact.missing}',
];

describe('injectSessionState', () => {
  describe('renders as ADK 2.0.0 does', () => {
    for (const template of templates) {
      it(JSON.stringify(template), async () => {
        expect(viaUs(template, true)).toBe(await viaAdk(template, true));
      });
    }
  });

  describe('fails where ADK fails, naming the same variable', () => {
    for (const template of failing) {
      it(JSON.stringify(template), async () => {
        const adkError = await viaAdk(template, true).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(adkError).toBeInstanceOf(Error);
        const ours = (() => {
          try {
            viaUs(template, true);
          } catch (error) {
            return error;
          }
        })();
        expect(ours).toBeInstanceOf(MissingTemplateKeyError);
        const key = (ours as MissingTemplateKeyError).key;
        const adkNamed = String(adkError?.message).match(/`(.+)`|Artifact (.+) not found/);
        expect(key).toBe(adkNamed?.[1] ?? `artifact.${adkNamed?.[2]}`);
      });
    }
  });

  it('without an artifact resolver, a template that names an artifact is an error, as in ADK without an artifact service', async () => {
    for (const template of ['{artifact.notes}', '{artifact.notes?}']) {
      await expect(viaAdk(template, false)).rejects.toThrow(/Artifact service is not initialized/);
      expect(() => viaUs(template, false)).toThrow(/no `artifact` resolver/);
    }
    // A template without artifacts needs no resolver.
    expect(viaUs('{name}', false)).toBe('Ada');
  });

  it('reads only own keys of the state: {constructor} is not Object.prototype.constructor (ADK reads it)', async () => {
    expect(await viaAdk('[{constructor?}]', true)).toMatch(/function Object/);
    expect(viaUs('[{constructor?}]', true)).toBe('[]');
    expect(() => injectSessionState('{toString}', {})).toThrow(MissingTemplateKeyError);
    const parsed = JSON.parse('{"__proto__": "a plain key"}');
    expect(injectSessionState('{__proto__}', parsed)).toBe('a plain key');
    expect(injectSessionState('[{__proto__?}]', {})).toBe('[]');
  });

  it('does not expand placeholders inside values', () => {
    expect(injectSessionState('{echo} {name}', state)).toBe('{name} Ada');
  });

  it('raises a typed error that names the key and says how to make it optional', () => {
    let error: unknown;
    try {
      injectSessionState('Hi {user:name}', { name: 'x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MissingTemplateKeyError);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toMatchObject({ name: 'MissingTemplateKeyError', code: 'INVALID_INPUT', key: 'user:name' });
    expect(String((error as Error).message)).toContain('{user:name?}');
  });

  it('passes the artifact name to the resolver and renders what it returns', () => {
    const asked: string[] = [];
    const out = injectSessionState('{artifact.report.txt} {artifact.n}', state, {
      artifact: (name) => {
        asked.push(name);
        return name === 'n' ? 42 : { text: 'body' };
      },
    });
    expect(out).toBe('body 42');
    expect(asked).toEqual(['report.txt', 'n']);
  });
});
