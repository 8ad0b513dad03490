/**
 * idb-adk-sessions: an offline session store for in-browser agent apps, with
 * the method shapes of Google ADK's `BaseSessionService`.
 */

// Not on the artifacts face: its module is the engine's, which the adk subpath must not reach.
export type { ArtifactEngineOptions } from './artifacts/engine.js';
export type {
  ArchiveImportOutcome,
  ArtifactFileRequest,
  ArtifactFront,
  ArtifactKeyRequest,
  ArtifactPart,
  ArtifactUsage,
  ArtifactUsageRequest,
  ArtifactVersion,
  ArtifactVersionRequest,
  Base64Form,
  LoadedArtifactBlob,
  SaveArtifactBlobRequest,
  SaveArtifactRequest,
} from './artifacts/index.js';
export {
  type ConnectOptions,
  type ConnectTarget,
  connectSessionStore,
  type SessionStoreClient,
} from './client/connect.js';
export {
  exposeSessionService,
  IndexedDbSessionService,
  type IndexedDbSessionServiceOptions,
} from './client/indexeddb-session-service.js';
export { type OpenSessionStoreOptions, openSessionStore, type StoreMode } from './client/open.js';
export type { SessionStore, StoreKind } from './client/store.js';
export type { SyncHandle, SyncStartOptions } from './client/sync-handle.js';
export { DraftInUseError, DraftNotFoundError } from './core/draft-errors.js';
export {
  AlreadyExistsError,
  type ErrorCode,
  InvalidInputError,
  QuotaExceededError,
  SessionNotFoundError,
  SessionStoreError,
  StaleSessionError,
  StorageError,
  StoreClosedError,
  SyncError,
  TimeoutError,
  UpgradeBlockedError,
} from './core/errors.js';
export { EventNotFoundError } from './core/event-not-found.js';
export { INTERNAL_METADATA_PREFIX } from './core/internal-metadata.js';
export { InvocationNotFoundError } from './core/invocation-not-found.js';
export { MAX_JSON_DEPTH } from './core/json.js';
export {
  DEFAULT_MAX_LOSS_MS,
  DRAFT_EXPIRY_MS,
  MAX_DRAFTS_PER_SESSION,
  MAX_FILENAME_LENGTH,
  MAX_ID_LENGTH,
  MAX_METADATA_SIZE,
  MAX_RECORD_SIZE,
} from './core/limits.js';
export { APP_PREFIX, TEMP_PREFIX, USER_PREFIX } from './core/state.js';
export type { ChangeFilter, ChangeListener, StoreChange } from './database/changes.js';
export { DEFAULT_DB_NAME } from './database/defaults.js';
export type {
  BeginDraftRequest,
  Draft,
  DraftDelta,
  DraftRequest,
  DraftsFront,
  DraftWriter,
  FinishDraftOptions,
  ResumeDraftRequest,
} from './drafts/index.js';
export { serveSessionStores } from './host/expose.js';
export type { EngineOptions } from './host/store-engine.js';
export {
  type Appender,
  type AppenderOptions,
  type AppendInput,
  type AppendStore,
  createAppender,
} from './live/appender.js';
export {
  type LiveDraftStore,
  type LiveObservable,
  type LiveObserver,
  type LiveOptions,
  type LiveQuery,
  type LiveSnapshot,
  type LiveStore,
  type LiveUnsubscribe,
  type SessionWithDrafts,
  type WatchSessionOptions,
  watchAppState,
  watchDrafts,
  watchSession,
  watchSessions,
  watchUserState,
} from './live/index.js';
export type {
  AddEventsToMemoryRequest,
  DeleteMemoryRequest,
  MemoryFront,
  MemoryHit,
  MemoryUserKey,
  SearchMemoryRequest,
} from './memory/index.js';
export {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_OFFSET,
  type MatchMode,
  type SearchEventsRequest,
  type SearchEventsResponse,
  type SearchHit,
  type SearchOptions,
  type Snippet,
} from './search/index.js';
export { type BranchStore, branchPoints, switchBranch } from './sessions/branches.js';
export { ERASED_METADATA_KEY, isErased } from './sessions/erased.js';
export { rewoundEventIds, withoutRewound } from './sessions/rewound.js';
export { type InjectOptions, injectSessionState, MissingTemplateKeyError } from './sessions/template.js';
export { appendWithState, TurnState } from './sessions/turn-state.js';
export type {
  Decision,
  SyncConflict,
  SyncConflictPolicy,
  SyncOptions,
  SyncStatus,
  SyncStatusListener,
} from './sync/index.js';
export {
  type ArchiveExportOptions,
  type ArchiveExportProgress,
  type ArchiveSource,
  type ArchiveTarget,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportDocument,
  type ExportOptions,
  type ExportProgress,
  exportArchive,
  exportArchiveToBlob,
  exportSessions,
  exportSessionsToBlob,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
  type ImportSource,
  importArchive,
  importSessions,
  type SessionImportOptions,
  type TransferSource,
  type TransferTarget,
} from './transfer/index.js';
export type {
  AppendEventRequest,
  AppendEventsRequest,
  AppStateRequest,
  AppSummary,
  Branch,
  BranchPoint,
  ConflictPolicy,
  Content,
  CreateSessionRequest,
  DeleteSessionRequest,
  Durability,
  EraseRequest,
  EraseResult,
  Event,
  EventActions,
  EventCompaction,
  GetSessionConfig,
  GetSessionRequest,
  ListSessionKeysRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  ListUsersRequest,
  Part,
  RewindRequest,
  Session,
  SessionCatalog,
  SessionKey,
  SessionService,
  SwitchBranchRequest,
  UserStateRequest,
  UserSummary,
} from './types.js';
