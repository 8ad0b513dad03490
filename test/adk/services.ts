/**
 * A session service under comparison. Each can be "reloaded": a store is closed
 * and opened again over the same database (a page reload); ADK's in-memory
 * service has nothing to reload and is kept.
 */
import { type BaseSessionService, InMemorySessionService } from '@google/adk';

export interface ServiceUnderTest {
  readonly label: string;
  readonly service: BaseSessionService;
  /** Closes and reopens the store over the same database; returns the new service. */
  reload(): Promise<BaseSessionService>;
  close(): Promise<void>;
}

export function adkInMemory(): ServiceUnderTest {
  const service = new InMemorySessionService();
  return {
    label: "ADK's InMemorySessionService",
    service,
    reload: async () => service,
    close: async () => {},
  };
}
