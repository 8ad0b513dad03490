/**
 * Export and import with artifacts: a zip archive (fflate) holding
 * `sessions.json` (exactly the JSON export document), `artifacts.json` (a
 * manifest: one entry per artifact version, its metadata and which file holds
 * its bytes) and `files/<n>`, the bytes stored uncompressed. Entry names never
 * come from stored data, so no name in an archive can point anywhere else.
 * Import is all or nothing: sessions and artifacts go in one transaction.
 */
import { unzipSync, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import * as z from 'zod/mini';
import type { ArchiveImportOutcome, ArtifactFront } from '../artifacts/index.js';
import { InvalidInputError } from '../core/errors.js';
import { validate } from '../core/schema.js';
import { listSessionKeysRequestSchema } from '../sessions/schema.js';
import type { ListSessionKeysRequest, SessionKey } from '../types.js';
import { adkSession, type ExportOptions, type TransferSource } from './export.js';
import { documentEnd, documentStart, sessionsOf } from './format.js';
import { type ImportOptions, parseJson } from './import.js';

export const ARCHIVE_MANIFEST_FORMAT = 'adk-artifacts';
export const ARCHIVE_VERSION = 1;
/** Largest JSON entry (sessions or manifest) an import inflates. */
const MAX_JSON_ENTRY = 512 * 1024 * 1024;

/** What an archive export reads from: any store (`store.artifacts` included). */
export interface ArchiveSource extends TransferSource {
  /** The store's artifacts, read version by version. */
  artifacts: Pick<ArtifactFront, 'listArtifactKeys' | 'listArtifactVersions' | 'loadArtifactBlob'>;
}

/** What an archive import writes to: any store. */
export interface ArchiveTarget {
  /** The store's artifacts, which write the sessions and versions in one transaction. */
  artifacts: Pick<ArtifactFront, 'importWithArtifacts'>;
}

/** How far an archive export is: `ExportProgress`'s sessions, then artifacts. */
export interface ArchiveExportProgress {
  /** Sessions written so far. */
  sessions: number;
  /** Sessions the archive holds. */
  totalSessions: number;
  /** Artifact versions written so far. */
  artifacts: number;
  /** Bytes of artifact payloads written so far. */
  bytes: number;
}

/** `exportArchive`'s options: `exportSessions`' own, with progress that counts artifacts too. */
export interface ArchiveExportOptions extends Omit<ExportOptions, 'onProgress'> {
  /** Called once the sessions are listed, then as sessions and artifact versions are written. */
  onProgress?: (progress: ArchiveExportProgress) => void;
}

/** One version in `artifacts.json`. */
const manifestEntrySchema = z.object({
  appName: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  filename: z.string(),
  version: z.number(),
  createTime: z.number(),
  mimeType: z.string(),
  customMetadata: z.optional(z.record(z.string(), z.unknown())),
  kind: z.enum(['bytes', 'text', 'file']),
  displayName: z.optional(z.string()),
  fileUri: z.optional(z.string()),
  /** The archive entry with the payload (bytes and text). */
  file: z.optional(z.string()),
  /** A Part's other fields and how its base64 was written (archives from earlier releases have neither). */
  part: z.optional(z.unknown()),
  base64: z.optional(z.unknown()),
});
type ManifestEntry = z.infer<typeof manifestEntrySchema>;

const manifestSchema = z.object({
  format: z.literal(ARCHIVE_MANIFEST_FORMAT, { error: `must be "${ARCHIVE_MANIFEST_FORMAT}"` }),
  version: z.literal(ARCHIVE_VERSION, { error: `must be ${ARCHIVE_VERSION}, the version this library reads` }),
  artifacts: z.array(manifestEntrySchema),
});

const keyString = (parts: readonly string[]): string => JSON.stringify(parts);

/**
 * Streams a zip of the sessions asked for (as `exportSessions` writes them)
 * and every version of their artifacts, `user:` ones of their users included.
 * The keys are listed in one snapshot; then each session and its artifacts
 * are read and written in turn. Reading waits while the reader is behind
 * (more than `ARCHIVE_BUFFER_BYTES` queued), so a slow consumer (an upload, a
 * file on a slow disk) never makes the whole archive pile up in memory.
 * Throws `InvalidInputError` at once for bad options.
 */
export function exportArchive(store: ArchiveSource, options: ArchiveExportOptions = {}): ReadableStream<Uint8Array> {
  const request: ListSessionKeysRequest = validate('exportArchive', listSessionKeysRequestSchema, {
    ...(options.appName !== undefined ? { appName: options.appName } : {}),
    ...(options.userId !== undefined ? { userId: options.userId } : {}),
  });
  const { signal, onProgress } = options;
  const encoder = new TextEncoder();
  // Resolved by the reader's next pull (it took enough of what is queued), or when the stream ends early.
  let wanted: (() => void) | undefined;
  const wake = (): void => {
    wanted?.();
    wanted = undefined;
  };
  /** Set once the stream failed or its reader cancelled it: the export stops reading the store. */
  let failed = false;
  return new ReadableStream<Uint8Array>(
    {
      pull: wake,
      cancel() {
        failed = true;
        wake();
      },
      start(controller) {
        const room = async (): Promise<void> => {
          while ((controller.desiredSize ?? 0) <= 0) {
            if (failed) throw new Error('the archive stream ended before the export did');
            await new Promise<void>((resolve) => {
              wanted = resolve;
            });
          }
        };
        const zip = new Zip((error, chunk, final) => {
          if (failed) return;
          if (error) {
            // Called back after construction, so `fail` is defined by then; it also wakes a waiting read.
            fail(error);
            return;
          }
          controller.enqueue(chunk);
          if (final) controller.close();
        });
        const fail = (error: unknown): void => {
          if (failed) return;
          failed = true;
          zip.terminate();
          controller.error(error);
          wake();
        };
        signal?.addEventListener('abort', () => fail(signal.reason), { once: true });
        const progress: ArchiveExportProgress = { sessions: 0, totalSessions: 0, artifacts: 0, bytes: 0 };
        const report = (): void => onProgress?.({ ...progress });
        const run = async (): Promise<void> => {
          signal?.throwIfAborted();
          const keys = await store.listSessionKeys(request);
          progress.totalSessions = keys.length;
          report();
          const sessions = new ZipDeflate('sessions.json', { level: 6 });
          zip.add(sessions);
          sessions.push(encoder.encode(documentStart(options.exportedAt ?? Date.now())));
          const exported: SessionKey[] = [];
          for (const key of keys) {
            await room();
            const session = await store.getSession(key);
            signal?.throwIfAborted();
            if (!session) {
              progress.totalSessions--;
              continue;
            }
            sessions.push(encoder.encode((exported.length === 0 ? '\n' : ',\n') + JSON.stringify(adkSession(session))));
            exported.push(key);
            progress.sessions++;
            report();
          }
          sessions.push(encoder.encode(documentEnd), true);

          const manifest: ManifestEntry[] = [];
          const usersDone = new Set<string>();
          for (const key of exported) {
            const user = keyString([key.appName, key.userId]);
            for (const filename of await store.artifacts.listArtifactKeys(key)) {
              if (filename.startsWith('user:') && usersDone.has(user)) continue;
              for (const { version } of await store.artifacts.listArtifactVersions({ ...key, filename })) {
                const loaded = await store.artifacts.loadArtifactBlob({ ...key, filename, version });
                signal?.throwIfAborted();
                if (!loaded) continue;
                const entry: ManifestEntry = {
                  ...key,
                  filename,
                  version,
                  createTime: loaded.createTime,
                  mimeType: loaded.mimeType,
                  kind: loaded.kind,
                  ...(loaded.customMetadata ? { customMetadata: loaded.customMetadata } : {}),
                  ...(loaded.displayName ? { displayName: loaded.displayName } : {}),
                  ...(loaded.fileUri ? { fileUri: loaded.fileUri } : {}),
                  ...(loaded.part ? { part: loaded.part } : {}),
                  ...(loaded.base64 !== undefined ? { base64: loaded.base64 } : {}),
                };
                if (loaded.blob) {
                  entry.file = `files/${manifest.length + 1}`;
                  const file = new ZipPassThrough(entry.file);
                  zip.add(file);
                  const reader = loaded.blob.stream().getReader();
                  for (;;) {
                    await room();
                    const { done, value } = await reader.read();
                    if (done) break;
                    file.push(value);
                    progress.bytes += value.length;
                  }
                  file.push(new Uint8Array(0), true);
                }
                manifest.push(entry);
                progress.artifacts++;
                report();
              }
            }
            usersDone.add(user);
          }
          const list = new ZipDeflate('artifacts.json', { level: 6 });
          zip.add(list);
          list.push(
            encoder.encode(
              JSON.stringify({ format: ARCHIVE_MANIFEST_FORMAT, version: ARCHIVE_VERSION, artifacts: manifest }),
            ),
            true,
          );
          zip.end();
        };
        run().catch(fail);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: ARCHIVE_BUFFER_BYTES }),
  );
}

/** How many bytes of an archive may wait for its reader before the export stops reading the store. */
export const ARCHIVE_BUFFER_BYTES = 1024 * 1024;

/** The whole archive as a `Blob` of type `application/zip`, e.g. for a download link. */
export async function exportArchiveToBlob(store: ArchiveSource, options: ArchiveExportOptions = {}): Promise<Blob> {
  const blob = await new Response(exportArchive(store, options)).blob();
  return new Blob([blob], { type: 'application/zip' });
}

function readZip(bytes: Uint8Array): Record<string, Uint8Array> {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new InvalidInputError('importArchive: file: is not a zip archive');
  }
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        if (file.name !== 'sessions.json' && file.name !== 'artifacts.json' && !/^files\/\d+$/.test(file.name)) {
          throw new InvalidInputError(`importArchive: file: holds "${file.name}", which this format does not have`);
        }
        if (file.name.endsWith('.json') && file.originalSize > MAX_JSON_ENTRY) {
          throw new InvalidInputError(`importArchive: file: ${file.name} is larger than ${MAX_JSON_ENTRY} bytes`);
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`importArchive: file: is not a readable zip archive (${why})`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
function text(bytes: Uint8Array, where: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InvalidInputError(`importArchive: ${where}: is not UTF-8`);
  }
}

/** The manifest's entries as artifact versions to import, payloads as Blobs. */
function artifactsOf(files: Record<string, Uint8Array>): unknown[] {
  const raw = files['artifacts.json'];
  if (!raw) return [];
  const manifest = validate('importArchive', manifestSchema, parseJson(text(raw, 'artifacts.json')), [
    'artifacts.json',
  ]);
  return manifest.artifacts.map((entry, i) => {
    const { kind, file, fileUri, displayName, part, base64, ...rest } = entry;
    // Checked with the rest of the entry when the artifacts are validated.
    const kept = { ...(part !== undefined ? { part } : {}), ...(base64 !== undefined ? { base64 } : {}) };
    const payload = file === undefined ? undefined : files[file];
    if (kind !== 'file' && !payload) {
      throw new InvalidInputError(`importArchive: artifacts.json: artifacts[${i}]: its file "${file}" is missing`);
    }
    const body =
      kind === 'file'
        ? { kind, fileUri, ...(displayName ? { displayName } : {}), ...kept }
        : kind === 'text'
          ? { kind, text: text(payload as Uint8Array, `artifacts.json: artifacts[${i}]`), ...kept }
          : {
              kind,
              data: new Blob([payload as Uint8Array<ArrayBuffer>], { type: rest.mimeType }),
              ...(displayName ? { displayName } : {}),
              ...kept,
            };
    return { ...rest, body };
  });
}

/**
 * Imports an archive made by `exportArchive`: every session and artifact is
 * validated first, then all are written in one transaction, or nothing is
 * (`InvalidInputError` naming the place, `AlreadyExistsError` for a conflict,
 * `QuotaExceededError` for a full disk). The archive is read whole into memory.
 * `onConflict` as in `importSessions`; a replaced session's stored artifacts are
 * replaced too, a skipped one's stay, and a stored `user:` version is kept.
 */
export async function importArchive(
  store: ArchiveTarget,
  source: Blob,
  options: ImportOptions = {},
): Promise<ArchiveImportOutcome> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  if (!(source instanceof Blob)) throw new InvalidInputError('importArchive: file: must be a Blob or File');
  const totalBytes = source.size;
  const files = readZip(new Uint8Array(await source.arrayBuffer()));
  signal?.throwIfAborted();
  const json = files['sessions.json'];
  if (!json) throw new InvalidInputError('importArchive: file: has no sessions.json');
  const sessions = sessionsOf(parseJson(text(json, 'sessions.json')));
  const artifacts = artifactsOf(files);
  const report = (done: number): void =>
    onProgress?.({ bytes: totalBytes, totalBytes, sessions: done, totalSessions: sessions.length });
  report(0);
  const outcome = await store.artifacts.importWithArtifacts(sessions as never, artifacts, {
    ...(options.onConflict !== undefined ? { onConflict: options.onConflict } : {}),
    ...(signal ? { signal } : {}),
    onProgress: report,
  });
  report(sessions.length);
  return outcome;
}
