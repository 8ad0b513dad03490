// The fixture app's own data: one agent turn in a session of its user, written on first load.
export async function seed(store) {
  const key = { appName: 'fixture-app', userId: 'user-1', sessionId: 'first-chat' };
  const session = await store.getOrCreateSession(key);
  if (session.events.length > 0) return;
  await store.appendEvents({
    session,
    events: [
      {
        id: 'e1',
        invocationId: 'i1',
        author: 'user',
        timestamp: Date.now(),
        content: { role: 'user', parts: [{ text: 'hello from the fixture app' }] },
      },
      {
        id: 'e2',
        invocationId: 'i1',
        author: 'agent',
        timestamp: Date.now() + 1,
        content: { role: 'model', parts: [{ text: 'hi' }] },
        actions: { stateDelta: { greeted: true } },
      },
    ],
  });
}
