/**
 * The in-thread store's engine, loaded on its first call: a page that runs the
 * store in a worker never downloads the engine or any IndexedDB code, and one
 * that chooses `'in-thread'` fetches them once, when first used.
 */

import type { ArtifactEngine } from '../artifacts/engine.js';
import type { ArtifactBackend } from '../artifacts/protocol.js';
import { StorageError, StoreClosedError } from '../errors.js';
import type { MemoryBackend } from '../memory/protocol.js';
import type { Backend, ImportBatch } from '../protocol.js';
import type { SearchBackend } from '../search/protocol.js';
import type { EngineOptions, StoreEngine } from '../store/engine.js';

export class LazyEngine implements Backend, ArtifactBackend, SearchBackend, MemoryBackend {
  private engine: Promise<StoreEngine> | undefined;
  private readonly parts: {
    artifacts?: Promise<ArtifactEngine>;
    search?: Promise<SearchBackend>;
    memory?: Promise<MemoryBackend>;
  } = {};
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

  /**
   * A capability's engine over the store's (artifacts, search, memory), its
   * module fetched on first use like the store's, and again after a failed download.
   */
  private loadPart<T>(
    slot: 'artifacts' | 'search' | 'memory',
    what: string,
    part: () => Promise<(engine: StoreEngine) => T>,
  ): Promise<T> {
    const parts = this.parts as Partial<Record<typeof slot, Promise<T>>>;
    let loading = parts[slot];
    if (!loading) {
      loading = Promise.all([this.load(), part()]).then(
        ([engine, make]) => make(engine),
        (error: unknown) => {
          delete parts[slot];
          throw error instanceof StoreClosedError || error instanceof StorageError
            ? error
            : new StorageError(`the store's ${what} engine could not be loaded: ${String(error)}`, { cause: error });
        },
      );
      parts[slot] = loading;
    }
    return loading;
  }

  private loadArtifacts(): Promise<ArtifactEngine> {
    return this.loadPart(
      'artifacts',
      'artifact',
      async () => (await import('../artifacts/engine.js')).artifactEngineFor,
    );
  }

  private loadSearch(): Promise<SearchBackend> {
    return this.loadPart('search', 'search', async () => (await import('../search/engine.js')).searchEngineFor);
  }

  private loadMemory(): Promise<MemoryBackend> {
    return this.loadPart('memory', 'memory', async () => (await import('../memory/engine.js')).memoryEngineFor);
  }

  async addSessionMemory(...args: Parameters<MemoryBackend['addSessionMemory']>) {
    return (await this.loadMemory()).addSessionMemory(...args);
  }
  async addEventsMemory(...args: Parameters<MemoryBackend['addEventsMemory']>) {
    return (await this.loadMemory()).addEventsMemory(...args);
  }
  async searchMemory(...args: Parameters<MemoryBackend['searchMemory']>) {
    return (await this.loadMemory()).searchMemory(...args);
  }
  async deleteMemory(...args: Parameters<MemoryBackend['deleteMemory']>) {
    return (await this.loadMemory()).deleteMemory(...args);
  }
  async deleteMemories(...args: Parameters<MemoryBackend['deleteMemories']>) {
    return (await this.loadMemory()).deleteMemories(...args);
  }

  async searchEvents(...args: Parameters<SearchBackend['searchEvents']>) {
    return (await this.loadSearch()).searchEvents(...args);
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
  /** Closing a store that was never used loads nothing; one whose engine never loaded has nothing to close. */
  async close(): Promise<void> {
    this.closed = true;
    const engine = await this.engine?.catch(() => undefined);
    await engine?.close();
  }
}
