/**
 * What is selected lives in the URL's hash, so the back button, reload and
 * shared links all work: `#app=chat&user=ada&session=s1` lists ada's sessions
 * of chat with s1 open; `#app=chat&session=s1&of=bob` lists every user's
 * sessions with bob's s1 open (the list's scope and the open session's owner
 * are independent).
 */
export interface Selection {
  app?: string;
  /** The user the session list is narrowed to; every user when absent. */
  user?: string;
  /** The open session. */
  session?: { userId: string; id: string };
}

export function parseHash(hash: string): Selection {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const selection: Selection = {};
  const app = params.get('app');
  if (!app) return selection;
  selection.app = app;
  const user = params.get('user');
  if (user) selection.user = user;
  const id = params.get('session');
  const owner = params.get('of') || user;
  if (id && owner) selection.session = { userId: owner, id };
  return selection;
}

export function formatHash(selection: Selection): string {
  const params = new URLSearchParams();
  if (selection.app) {
    params.set('app', selection.app);
    if (selection.user) params.set('user', selection.user);
    if (selection.session) {
      params.set('session', selection.session.id);
      if (selection.session.userId !== selection.user) params.set('of', selection.session.userId);
    }
  }
  return `#${params.toString()}`;
}

export function sameSelection(a: Selection, b: Selection): boolean {
  return (
    a.app === b.app && a.user === b.user && a.session?.userId === b.session?.userId && a.session?.id === b.session?.id
  );
}
