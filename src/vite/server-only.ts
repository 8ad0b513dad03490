/**
 * ADK modules that only a server can use (Vertex AI and Google Cloud clients,
 * database and file storage, local code execution, A2A, OpenTelemetry export).
 * In a browser bundle each is replaced by a module with the same exports whose
 * every use throws a clear error, so their Node-only dependencies are never
 * bundled and nothing runs at start-up.
 */
import { readFileSync } from 'node:fs';

const SERVER_ONLY = new RegExp(
  `@google/adk/dist/web/(${[
    'a2a/[\\w/]+',
    'artifacts/file_artifact_service',
    'code_executors/(agent_engine_sandbox|unsafe_local)_code_executor',
    'environment/local_environment',
    'integrations/agent_registry/agent_registry',
    'memory/vertex_ai_memory_bank_service',
    'models/apigee_llm',
    'sessions/(database_session_service|db/schema|vertex_ai_session_service)',
    'skills/(gcp_skill_registry|loader)',
    'telemetry/(google_cloud|setup)',
    'tools/(load_web_page|skill/skill_toolset|openapi_tool/auth/credential_exchangers/service_account_exchanger)',
    'utils/file_utils',
  ].join('|')})\\.js$`,
);

export function isServerOnly(id: string): boolean {
  return SERVER_ONLY.test(id.replaceAll('\\', '/'));
}

/** The names a module of ADK's build exports, from its closing `export { a, b as c };`. */
function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const list of source.matchAll(/^export \{([^}]*)\};?/gm)) {
    for (const part of (list[1] ?? '').split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) names.push(name);
    }
  }
  return names;
}

/**
 * A stand-in for the server-only module at `file`. Its exports are callable and
 * constructible placeholders that throw when used; `supportedModels` reads as
 * empty, so ADK's model registry can still register a stand-in model class.
 */
export function serverOnlyStub(file: string): string {
  const where = file.replaceAll('\\', '/').split('/dist/web/').pop() ?? file;
  const names = exportedNames(readFileSync(file, 'utf8'));
  return `const unavailable = (name) => {
  const fail = () => { throw new Error(name + ' (ADK ${where}) is not available in the browser'); };
  return new Proxy(function () {}, {
    apply: fail,
    construct: fail,
    get: (target, key) => (key === 'supportedModels' ? [] : key === 'prototype' ? target.prototype : fail()),
  });
};
${names.map((name) => `export const ${name} = unavailable(${JSON.stringify(name)});`).join('\n')}
`;
}
