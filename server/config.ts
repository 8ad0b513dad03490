/**
 * `npm run server`'s settings, read from the environment and checked before
 * anything starts: a value that is set but not understood is an error naming
 * it, never a silent default (`SYNC_MAX_BODY_BYTES=abc` once switched the cap off).
 */
import type { Principal } from './app.js';
import type { SyncServerOptions } from './start.js';

export interface ServerConfig {
  options: Omit<SyncServerOptions, 'authenticate'>;
  tokens: Map<string, Principal>;
  /** No SYNC_TOKENS: the development token only. */
  development: boolean;
}

/** The settings from `env`, or every problem with them. */
export function readConfig(env: Record<string, string | undefined>): ServerConfig | { errors: string[] } {
  const errors: string[] = [];
  const set = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const integer = (name: string, min: number, max: number): number | undefined => {
    const raw = set(name);
    if (raw === undefined) return undefined;
    const value = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      errors.push(`${name}=${JSON.stringify(raw)}: must be a whole number from ${min} to ${max}`);
      return undefined;
    }
    return value;
  };
  const port = integer('PORT', 0, 65_535);
  const maxBodyBytes = integer('SYNC_MAX_BODY_BYTES', 1024, 1024 * 1024 * 1024);
  const maxStreamsPerUser = integer('SYNC_MAX_STREAMS_PER_USER', 1, 100_000);
  const url = set('DATABASE_URL');
  if (url !== undefined && !/^postgres(ql)?:\/\/./.test(url)) {
    errors.push('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  }
  const origins = set('SYNC_CORS_ORIGINS')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of origins ?? []) {
    if (!isOrigin(origin))
      errors.push(`SYNC_CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path)`);
  }
  const spec = set('SYNC_TOKENS');
  const tokens = parseTokens(spec ?? 'dev-token=demo-user+app-state', errors);
  if (errors.length > 0) return { errors };
  const host = set('HOST');
  const file = set('SYNC_DB_FILE');
  return {
    development: spec === undefined,
    tokens,
    options: {
      port: port ?? 8787,
      host: host ?? '127.0.0.1',
      ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
      ...(maxStreamsPerUser === undefined ? {} : { maxStreamsPerUser }),
      ...(origins === undefined ? {} : { corsOrigins: origins }),
      ...(url === undefined ? {} : { url }),
      ...(file === undefined ? {} : { file }),
    },
  };
}

function isOrigin(value: string): boolean {
  try {
    const parsed = new URL(value);
    return /^https?:$/.test(parsed.protocol) && parsed.origin === value;
  } catch {
    return false;
  }
}

function parseTokens(spec: string, errors: string[]): Map<string, Principal> {
  const tokens = new Map<string, Principal>();
  for (const entry of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^([^=]+)=([^@+]+)(?:@([^+]+))?(\+app-state)?$/.exec(entry);
    if (!match) {
      // The token itself is a secret: name the entry by its user part only.
      const at = entry.indexOf('=');
      const shown = at < 0 ? 'an entry without "="' : `the entry for "${entry.slice(at + 1)}"`;
      errors.push(`SYNC_TOKENS: ${shown} is not token=userId[@appName][+app-state]`);
      continue;
    }
    const [, token, userId, appName, appState] = match as unknown as [string, string, string, string?, string?];
    tokens.set(token, {
      userId,
      ...(appName === undefined ? {} : { appName }),
      ...(appState === undefined ? {} : { appStateWrites: true }),
    });
  }
  return tokens;
}
