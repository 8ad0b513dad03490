/** Deterministic sample sessions for the transfer measurements: ADK-shaped, about 330 bytes of JSON per event. */
import type { Event, Session } from '../../src/index.js';

export function makeSessions(count: number, eventsEach: number): Session[] {
  const sessions: Session[] = [];
  let t = 1_700_000_000_000;
  for (let i = 0; i < count; i++) {
    const events: Event[] = [];
    for (let j = 0; j < eventsEach; j++) {
      t++;
      const agent = j % 2 === 1;
      events.push({
        id: `e-${i}-${j}`,
        invocationId: `inv-${i}-${j >> 1}`,
        author: agent ? 'assistant' : 'user',
        timestamp: t,
        content: { role: agent ? 'model' : 'user', parts: [{ text: `message ${j} of session ${i}: some words` }] },
        actions: {
          stateDelta: { step: j, 'user:last': i },
          artifactDelta: {},
          requestedAuthConfigs: {},
          requestedToolConfirmations: {},
        },
      });
    }
    sessions.push({
      id: `s-${i}`,
      appName: 'bench',
      userId: `u-${i % 10}`,
      state: { step: eventsEach - 1, 'user:last': i, 'app:sessions': count },
      events,
      lastUpdateTime: t,
    });
  }
  return sessions;
}
