/** Export and import of sessions as ADK-compatible JSON, and with their artifacts as a zip archive. */

export type { SessionImportOptions } from '../sessions/import-options.js';
export {
  type ArchiveExportOptions,
  type ArchiveExportProgress,
  type ArchiveSource,
  type ArchiveTarget,
  exportArchive,
  exportArchiveToBlob,
  importArchive,
} from './archive.js';
export {
  type ExportOptions,
  type ExportProgress,
  exportSessions,
  exportSessionsToBlob,
  type TransferSource,
} from './export.js';
export { EXPORT_FORMAT, EXPORT_VERSION, type ExportDocument } from './format.js';
export {
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
  importSessions,
  type TransferTarget,
} from './import.js';
export type { ImportSource } from './read-text.js';
