/**
 * The artifact service's public request types, in the shapes of ADK's `BaseArtifactService`.
 * Plain declarations checked against their zod schemas by test/types/named-types.test-d.ts;
 * this module imports nothing.
 */

/** Names a session whose artifacts to list (ADK's `listArtifactKeys`). */
export type ArtifactKeyRequest = {
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /** The session's id. */
  sessionId: string;
};

/** Names one artifact of a session. */
export type ArtifactFileRequest = {
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /** The session's id. */
  sessionId: string;
  /**
   * The artifact's name. A name starting with `user:` is shared by all the user's sessions
   * (ADK's rule); `/` nests names. Must not be empty, hold control characters or a backslash, or have
   * empty, `.` or `..` segments.
   */
  filename: string;
};

/** Names one version of an artifact. */
export type ArtifactVersionRequest = {
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /** The session's id. */
  sessionId: string;
  /**
   * The artifact's name. A name starting with `user:` is shared by all the user's sessions
   * (ADK's rule); `/` nests names. Must not be empty, hold control characters or a backslash, or have
   * empty, `.` or `..` segments.
   */
  filename: string;
  /** The version (from 0); the latest when absent. One that does not exist finds nothing. */
  version?: number;
};

/**
 * ADK's `Part`, as an artifact: exactly one of `inlineData`, `text` or `fileData` is its payload.
 * Any other field is kept as given and comes back when the version is loaded.
 */
export type ArtifactPart = {
  /** Text content. */
  text?: string;
  /** Bytes, base64-encoded (standard or URL-safe alphabet; written back the way they came). */
  inlineData?: {
    /** The bytes, base64-encoded. */
    data: string;
    /** Their MIME type, such as `image/png`. */
    mimeType?: string;
    /** A name to show for them. */
    displayName?: string;
  };
  /** A reference to a file elsewhere, kept as its URI. */
  fileData?: {
    /** Where the file is. */
    fileUri: string;
    /** Its MIME type. */
    mimeType?: string;
    /** A name to show for it. */
    displayName?: string;
  };
  /** Any other field of the Part, kept as given. */
  [field: string]: unknown;
};

/** ADK's `saveArtifact`: a Part stored as the artifact's next version. */
export type SaveArtifactRequest = {
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /** The session's id. */
  sessionId: string;
  /**
   * The artifact's name. A name starting with `user:` is shared by all the user's sessions
   * (ADK's rule); `/` nests names. Must not be empty, hold control characters or a backslash, or have
   * empty, `.` or `..` segments.
   */
  filename: string;
  /** The Part to store. */
  artifact: ArtifactPart;
  /** Whatever the app wants to keep with the version (JSON values, at most `MAX_METADATA_SIZE`). */
  customMetadata?: Record<string, unknown>;
};

/** `saveArtifactBlob`: a Blob or `File` stored as the artifact's next version, never encoded. Beyond ADK's shapes. */
export type SaveArtifactBlobRequest = {
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /** The session's id. */
  sessionId: string;
  /**
   * The artifact's name. A name starting with `user:` is shared by all the user's sessions
   * (ADK's rule); `/` nests names. Must not be empty, hold control characters or a backslash, or have
   * empty, `.` or `..` segments.
   */
  filename: string;
  /** The bytes; a `File`'s name is kept as the version's display name. */
  blob: Blob;
  /** Their MIME type; the Blob's own type when absent (else `application/octet-stream`). */
  mimeType?: string;
  /** Whatever the app wants to keep with the version (JSON values, at most `MAX_METADATA_SIZE`). */
  customMetadata?: Record<string, unknown>;
};

/** Whose artifacts `artifactUsage` measures: an app's, one user's, or one session's (`sessionId` needs `userId`). */
export type ArtifactUsageRequest = {
  /** The app. */
  appName: string;
  /** The user; every user of the app when absent. */
  userId?: string;
  /** The session; every session of the user when absent. */
  sessionId?: string;
};
