/**
 * The in-thread store's engine, loaded on its first call: a page that runs the
 * store in a worker never downloads the engine or any IndexedDB code, and one
 * that chooses `'in-thread'` fetches them once, when first used.
 */

import type { ArtifactEngine } from '../artifacts/engine.js';
import type { ArtifactBackend } from '../artifacts/protocol.js';
import { InvalidInputError, StorageError, StoreClosedError } from '../errors.js';
import type { Backend, ImportBatch } from '../protocol.js';
import type { EngineOptions, StoreEngine } from '../store/engine.js';
import type { SyncBackend, SyncStartRequest } from '../sync/protocol.js';
import type { SyncStatus } from '../sync/status.js';

export class LazyEngine implements Backend, ArtifactBackend, SyncBackend {
  private engine: Promise<StoreEngine> | undefined;
  private sync: SyncBackend | undefined;
  private artifacts: Promise<ArtifactEngine> | undefined;
  private closed = false;

  constructor(private readonly options: EngineOptions) {}

  /**
   * Must reject with `StoreClosedError` after `close()`, loaded or not; a failed
   * download is a `StorageError` and the next call tries again (a flaky network
   * must not break the store for the page's lifetime).
   */
  private load(): Promise<StoreEngine> {
    if (this.closed) return Promise.reject(new StoreClosedError('the store is closed'));
    this.engine ??= import('../store/engine.js').then(
      ({ StoreEngine }) => new StoreEngine(this.options),
      (error: unknown) => {
        this.engine = undefined;
        throw new StorageError(`the store's engine could not be loaded: ${String(error)}`, { cause: error });
      },
    );
    return this.engine;
  }

  /** The artifact engine, loaded (like the store's) on first use, and again after a failed download. */
  private loadArtifacts(): Promise<ArtifactEngine> {
    this.artifacts ??= Promise.all([this.load(), import('../artifacts/engine.js')]).then(
      ([engine, { artifactEngineFor }]) => artifactEngineFor(engine),
      (error: unknown) => {
        this.artifacts = undefined;
        throw error instanceof StoreClosedError || error instanceof StorageError
          ? error
          : new StorageError(`the store's artifact engine could not be loaded: ${String(error)}`, { cause: error });
      },
    );
    return this.artifacts;
  }

  async saveArtifact(...args: Parameters<ArtifactBackend['saveArtifact']>) {
    return (await this.loadArtifacts()).saveArtifact(...args);
  }
  async loadArtifact(...args: Parameters<ArtifactBackend['loadArtifact']>) {
    return (await this.loadArtifacts()).loadArtifact(...args);
  }
  async listArtifactKeys(...args: Parameters<ArtifactBackend['listArtifactKeys']>) {
    return (await this.loadArtifacts()).listArtifactKeys(...args);
  }
  async deleteArtifact(...args: Parameters<ArtifactBackend['deleteArtifact']>) {
    return (await this.loadArtifacts()).deleteArtifact(...args);
  }
  async listArtifactVersions(...args: Parameters<ArtifactBackend['listArtifactVersions']>) {
    return (await this.loadArtifacts()).listArtifactVersions(...args);
  }
  async getArtifactVersion(...args: Parameters<ArtifactBackend['getArtifactVersion']>) {
    return (await this.loadArtifacts()).getArtifactVersion(...args);
  }
  async artifactUsage(...args: Parameters<ArtifactBackend['artifactUsage']>) {
    return (await this.loadArtifacts()).artifactUsage(...args);
  }
  async importWithArtifacts(...args: Parameters<ArtifactBackend['importWithArtifacts']>) {
    return (await this.loadArtifacts()).importWithArtifacts(...args);
  }

  async createSession(...args: Parameters<Backend['createSession']>) {
    return (await this.load()).createSession(...args);
  }
  async getSession(...args: Parameters<Backend['getSession']>) {
    return (await this.load()).getSession(...args);
  }
  async listSessions(...args: Parameters<Backend['listSessions']>) {
    return (await this.load()).listSessions(...args);
  }
  async deleteSession(...args: Parameters<Backend['deleteSession']>) {
    return (await this.load()).deleteSession(...args);
  }
  async appendEvents(...args: Parameters<Backend['appendEvents']>) {
    return (await this.load()).appendEvents(...args);
  }
  async listSessionKeys(...args: Parameters<Backend['listSessionKeys']>) {
    return (await this.load()).listSessionKeys(...args);
  }
  async importSessions(batch: ImportBatch, onProgress?: (processed: number) => void) {
    return (await this.load()).importSessions(batch, onProgress);
  }
  async getUserState(...args: Parameters<Backend['getUserState']>) {
    return (await this.load()).getUserState(...args);
  }
  async getAppState(...args: Parameters<Backend['getAppState']>) {
    return (await this.load()).getAppState(...args);
  }
  async listApps() {
    return (await this.load()).listApps();
  }
  async listUsers(...args: Parameters<Backend['listUsers']>) {
    return (await this.load()).listUsers(...args);
  }
  /** Sync's engine is loaded with its first start, like the store's. */
  async startSync(request: SyncStartRequest, onStatus: (status: SyncStatus) => void) {
    const [engine, { syncMethods }] = await Promise.all([this.load(), import('../sync/host.js')]);
    this.sync ??= syncMethods(() => engine);
    return this.sync.startSync(request, onStatus);
  }
  async syncNow() {
    if (!this.sync) throw new InvalidInputError('syncNow: sync is not started');
    return this.sync.syncNow();
  }
  async stopSync() {
    await this.sync?.stopSync();
  }
  /** Closing a store that was never used loads nothing; one whose engine never loaded has nothing to close. */
  async close(): Promise<void> {
    this.closed = true;
    await this.sync?.stopSync();
    const engine = await this.engine?.catch(() => undefined);
    await engine?.close();
  }
}
