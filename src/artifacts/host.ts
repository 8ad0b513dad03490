/** The worker side of artifacts: each request is validated again (the page is another realm). */
import type { StoreEngine } from '../sessions/engine.js';
import { checkedArtifacts } from './checked.js';
import { artifactEngineFor } from './engine.js';
import type { ArtifactBackend } from './protocol.js';

/** The artifact methods for a host whose engine `current` gives (it throws before hello). */
export function artifactMethods(current: () => StoreEngine): ArtifactBackend {
  return checkedArtifacts(() => artifactEngineFor(current()));
}
