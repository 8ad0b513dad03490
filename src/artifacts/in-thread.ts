/** The artifact requests of a store running in this thread: its artifact engine behind the boundary check. */
import type { StoreEngine } from '../sessions/engine.js';
import { checkedArtifacts } from './checked.js';
import { type ArtifactEngineOptions, artifactEngineFor } from './engine.js';
import type { ArtifactBackend } from './protocol.js';

export function inThreadArtifacts(engine: StoreEngine, options: ArtifactEngineOptions = {}): ArtifactBackend {
  const artifacts = artifactEngineFor(engine, options);
  return checkedArtifacts(() => artifacts);
}
