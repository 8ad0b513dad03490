/**
 * The store's artifacts as an ADK `BaseArtifactService`, for ADK's `Runner`
 * (`new Runner({ ..., artifactService })`), so `Context.saveArtifact` and
 * `loadArtifact` write to IndexedDB.
 */
import type {
  BaseArtifactService,
  DeleteArtifactRequest,
  ListArtifactKeysRequest,
  ListVersionsRequest,
  LoadArtifactRequest,
  SaveArtifactRequest,
} from '@google/adk';
import type { ArtifactFront } from '../index.js';

// ADK's `Part` and `ArtifactVersion` are not exported by name from `@google/adk`: the methods are
// typed with its service's own signatures (`ReturnType<BaseArtifactService[...]>`), which public
// declarations can name.

/** What the adapter needs: `store.artifacts` of any store, in-thread or through a worker. */
export type AdkCompatibleArtifacts = Pick<
  ArtifactFront,
  | 'saveArtifact'
  | 'loadArtifact'
  | 'listArtifactKeys'
  | 'deleteArtifact'
  | 'listVersions'
  | 'listArtifactVersions'
  | 'getArtifactVersion'
>;

/**
 * Every method is delegated, so the store's rules apply: versions numbered in
 * the write transaction, `user:` names shared across a user's sessions, typed
 * errors for bad names and parts. `inlineData.data` (base64) is decoded before
 * it is stored, the bytes kept as a Blob, and given back in the form it came
 * in; a loaded Part has every field it was saved with.
 *
 * @example
 * ```ts
 * const store = openSessionStore({ dbName: 'my-agent' });
 * const runner = new Runner({ appName: 'chat', agent,
 *   sessionService: new AdkSessionService(store), artifactService: new AdkArtifactService(store.artifacts) });
 * ```
 */
export class AdkArtifactService implements BaseArtifactService {
  constructor(
    /** The artifacts every method delegates to (`store.artifacts`). */
    readonly artifacts: AdkCompatibleArtifacts,
  ) {}

  /** ADK's `Part` types every field optional; the store's validation refuses a part without its payload. */
  saveArtifact(request: SaveArtifactRequest): Promise<number> {
    return this.artifacts.saveArtifact(request as Parameters<AdkCompatibleArtifacts['saveArtifact']>[0]);
  }

  /** ADK's `loadArtifact`: the version (latest when omitted) as a `Part`, as it was saved; `undefined` when missing. */
  async loadArtifact(request: LoadArtifactRequest): ReturnType<BaseArtifactService['loadArtifact']> {
    return (await this.artifacts.loadArtifact(request)) as Awaited<ReturnType<BaseArtifactService['loadArtifact']>>;
  }

  /** ADK's `listArtifactKeys`: the session's artifact names and the user's `user:` names. */
  listArtifactKeys(request: ListArtifactKeysRequest): Promise<string[]> {
    return this.artifacts.listArtifactKeys(request);
  }

  /** ADK's `deleteArtifact`: every version of the artifact; a no-op for a missing name. */
  deleteArtifact(request: DeleteArtifactRequest): Promise<void> {
    return this.artifacts.deleteArtifact(request);
  }

  /** ADK's `listVersions`: the artifact's version numbers, oldest first. */
  listVersions(request: ListVersionsRequest): Promise<number[]> {
    return this.artifacts.listVersions(request);
  }

  /** ADK's `listArtifactVersions`: every version's metadata, oldest first. */
  listArtifactVersions(request: ListVersionsRequest): ReturnType<BaseArtifactService['listArtifactVersions']> {
    return this.artifacts.listArtifactVersions(request);
  }

  /** ADK's `getArtifactVersion`: one version's metadata (latest when omitted), or `undefined`. */
  getArtifactVersion(request: LoadArtifactRequest): ReturnType<BaseArtifactService['getArtifactVersion']> {
    return this.artifacts.getArtifactVersion(request);
  }
}
