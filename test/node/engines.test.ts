/**
 * `engines.node` is a promise to users: every Node the range admits runs what the package loads
 * there. So it must sit inside the range of each runtime dependency, and of each optional peer the
 * package imports at run time in Node (`/vite` imports Vite, `/adk` is used beside ADK's Runner).
 * `ai` and `@ai-sdk/*` are left out on purpose: `/ai-sdk` imports only their types, so their own
 * Node requirement applies to the app's use of the SDK, not to this package.
 */
import { readdirSync, readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
};
const loadedPeers = ['vite', '@google/adk'];

function nodeRangeOf(name: string): string | undefined {
  const manifest = JSON.parse(
    readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8'),
  ) as { engines?: { node?: string } };
  return manifest.engines?.node;
}

describe('engines.node', () => {
  it('is a valid range', () => {
    expect(semver.validRange(pkg.engines.node)).not.toBeNull();
  });

  it('admits no Node that a dependency or a peer loaded at run time refuses', () => {
    const refusing = [...Object.keys(pkg.dependencies), ...loadedPeers].flatMap((name) => {
      const theirs = nodeRangeOf(name);
      return theirs === undefined || semver.subset(pkg.engines.node, theirs) ? [] : [`${name} needs Node ${theirs}`];
    });
    expect(refusing).toEqual([]);
  });

  it('need not cover the AI SDK: /ai-sdk imports nothing of it but types', () => {
    const folder = new URL('../../src/ai-sdk/', import.meta.url);
    const valueImports = readdirSync(folder).flatMap((file) =>
      [
        ...readFileSync(new URL(file, folder), 'utf8').matchAll(/^import (?!type )[^;]*from '(ai|@ai-sdk\/[^']+)';/gm),
      ].map((m) => `${file}: ${m[0]}`),
    );
    expect(valueImports).toEqual([]);
  });

  it('admits the Node these tests run on', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});
