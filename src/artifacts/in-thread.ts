/** The artifact requests of a store running in this thread: its artifact engine behind the boundary check. */
import { checkedArtifacts } from './checked.js';
import { type ArtifactEngineOptions, type ArtifactHost, artifactEngineFor } from './engine.js';
import type { ArtifactBackend } from './protocol.js';

export function inThreadArtifacts(engine: ArtifactHost, options: ArtifactEngineOptions = {}): ArtifactBackend {
  const artifacts = artifactEngineFor(engine, options);
  return checkedArtifacts(() => artifacts);
}
