/**
 * Checks on the artifacts an import carries, made on the page and again in the
 * worker: each belongs to a session the import holds (a `user:` one to a user
 * it holds), and no version is given twice.
 */
import { InvalidInputError } from '../core/errors.js';
import { validate } from '../core/schema.js';
import { scopeOf } from '../database/records/artifacts.js';
import { type ArtifactImport, artifactImportListSchema } from './schema.js';

const keyString = (parts: readonly (string | number)[]): string => JSON.stringify(parts);

export function checkArtifactImports(
  sessions: readonly { appName: string; userId: string; id: string }[],
  artifacts: unknown,
): ArtifactImport[] {
  const checked = validate('importArchive', artifactImportListSchema, artifacts, ['artifacts']);
  const sessionKeys = new Set(sessions.map((s) => keyString([s.appName, s.userId, s.id])));
  const users = new Set(sessions.map((s) => keyString([s.appName, s.userId])));
  const seen = new Set<string>();
  checked.forEach((a, i) => {
    const scope = scopeOf(a.sessionId, a.filename);
    const owner =
      scope === a.sessionId
        ? sessionKeys.has(keyString([a.appName, a.userId, a.sessionId]))
        : users.has(keyString([a.appName, a.userId]));
    if (!owner) {
      throw new InvalidInputError(
        `importArchive: artifacts[${i}]: "${a.filename}" belongs to no ${scope === a.sessionId ? 'session' : 'user'} the import holds; nothing was imported`,
      );
    }
    const key = keyString([a.appName, a.userId, scope, a.filename, a.version]);
    if (seen.has(key)) {
      throw new InvalidInputError(
        `importArchive: artifacts[${i}]: version ${a.version} of "${a.filename}" is given twice; nothing was imported`,
      );
    }
    seen.add(key);
  });
  return checked;
}
