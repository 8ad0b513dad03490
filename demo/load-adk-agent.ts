import { z } from 'zod';

/**
 * Loads the demo's ADK agent, a chunk of its own (ADK is most of a megabyte). The demo page's
 * Content-Security-Policy allows no eval; unless told so first, zod probes once with
 * `new Function('')` (caught, harmless) when it compiles ADK's object schemas, and the browser
 * reports the refusal as a CSP violation, which Firefox raises as an uncaught page error.
 */
export function loadAdkAgent(): Promise<typeof import('./adk-agent.js')> {
  z.config({ jitless: true });
  return import('./adk-agent.js');
}
