/** The worker side of artifacts: each request is validated again (the page is another realm). */
import { checkedArtifacts } from './checked.js';
import { type ArtifactHost, artifactEngineFor } from './engine.js';
import type { ArtifactBackend } from './protocol.js';

/** The artifact methods for a host whose engine `current` gives (it throws before hello). */
export function artifactMethods(current: () => ArtifactHost): ArtifactBackend {
  return checkedArtifacts(() => artifactEngineFor(current()));
}
