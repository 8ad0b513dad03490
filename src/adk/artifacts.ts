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

/** ADK's `Part` and `ArtifactVersion` (the latter not exported by name from `@google/adk`). */
type Part = SaveArtifactRequest['artifact'];
type AdkArtifactVersion = NonNullable<Awaited<ReturnType<BaseArtifactService['getArtifactVersion']>>>;

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
 * const store = openSessionStore({ dbName: 'my-agent' });
 * const runner = new Runner({ appName: 'chat', agent,
 *   sessionService: new AdkSessionService(store), artifactService: new AdkArtifactService(store.artifacts) });
 */
export class AdkArtifactService implements BaseArtifactService {
  constructor(readonly artifacts: AdkCompatibleArtifacts) {}

  /** ADK's `Part` types every field optional; the store's validation refuses a part without its payload. */
  saveArtifact(request: SaveArtifactRequest): Promise<number> {
    return this.artifacts.saveArtifact(request as Parameters<AdkCompatibleArtifacts['saveArtifact']>[0]);
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    return (await this.artifacts.loadArtifact(request)) as Part | undefined;
  }

  listArtifactKeys(request: ListArtifactKeysRequest): Promise<string[]> {
    return this.artifacts.listArtifactKeys(request);
  }

  deleteArtifact(request: DeleteArtifactRequest): Promise<void> {
    return this.artifacts.deleteArtifact(request);
  }

  listVersions(request: ListVersionsRequest): Promise<number[]> {
    return this.artifacts.listVersions(request);
  }

  listArtifactVersions(request: ListVersionsRequest): Promise<AdkArtifactVersion[]> {
    return this.artifacts.listArtifactVersions(request);
  }

  getArtifactVersion(request: LoadArtifactRequest): Promise<AdkArtifactVersion | undefined> {
    return this.artifacts.getArtifactVersion(request);
  }
}
