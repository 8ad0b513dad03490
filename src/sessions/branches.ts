/**
 * Branching conversations, read from the history alone: no event is ever deleted or changed. A
 * rewind (`rewind`, ADK's) makes the conversation go on from an earlier point; what it undid is an
 * alternative at that point, still stored. An edited message or a regenerated reply is a rewind
 * and a new turn; switching back to an alternative is one more rewind, whose target is the rewind
 * that left it: undoing that rewind brings back the conversation exactly as it was when it was
 * left (state and artifact versions included, since a rewind restores those).
 *
 * The history is read as a tree. Each event that is not a rewind hangs below the event before it
 * in the conversation as it then was; a rewind moves the conversation back to where it was before
 * the first event of its target invocation (as `withoutRewound` reads it, walking from the end).
 * A point's alternatives are its children, in the order they were first written. Pure; the page
 * and the worker both use it.
 */
import { InvalidInputError, SessionNotFoundError } from '../core/errors.js';
import type { BranchPoint, Event, GetSessionRequest, RewindRequest, Session, SwitchBranchRequest } from '../types.js';

interface Node {
  event: Event | undefined;
  parent: Node | undefined;
  children: Node[];
  /** The last position in the history at which the conversation went through this node. */
  last: number;
}

/**
 * The branch points of the current conversation (what `withoutRewound(events)` leaves), by the id
 * of its event that starts one of several alternatives: a message edited twice is a point with
 * three alternatives. Events of the current conversation that were never rewound past have none.
 * `events` in append order, as a session holds them.
 */
export function branchPoints(events: readonly Event[]): Map<string, BranchPoint> {
  const root: Node = { event: undefined, parent: undefined, children: [], last: -1 };
  const nodes: Node[] = [];
  // The conversation's last node after each event, and where each invocation first appears.
  const tips: Node[] = [];
  const firstAt = new Map<string, number>();
  events.forEach((event, at) => {
    const before = tips[at - 1] ?? root;
    const target = event.actions?.rewindBeforeInvocationId;
    let tip = before;
    if (target) {
      const from = firstAt.get(target);
      // A rewind whose target has no event before it undoes nothing but itself.
      if (from !== undefined) tip = tips[from - 1] ?? root;
    } else {
      tip = { event, parent: before, children: [], last: at };
      before.children.push(tip);
      nodes.push(tip);
    }
    tip.last = at;
    tips.push(tip);
    if (event.invocationId !== undefined && !firstAt.has(event.invocationId)) firstAt.set(event.invocationId, at);
  });
  // Children are made after their parents: from the newest back, each node's last reaches its parent.
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i] as Node;
    const parent = node.parent as Node;
    if (node.last > parent.last) parent.last = node.last;
  }

  const points = new Map<string, BranchPoint>();
  for (let node = tips.at(-1); node?.event; node = node.parent) {
    const siblings = (node.parent as Node).children;
    if (siblings.length < 2) continue;
    points.set(node.event.id, {
      current: siblings.indexOf(node),
      alternatives: siblings.map((sibling) => ({
        eventId: (sibling.event as Event).id,
        // The conversation last went through `sibling` just before the rewind that left it.
        restoreBefore: sibling === node ? undefined : events[sibling.last + 1]?.invocationId,
      })),
    });
  }
  return points;
}

/** What `switchBranch` needs of a store: any store has it. */
export interface BranchStore {
  /** The session and its events, to read the alternatives from. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  /** The one write a switch makes. */
  rewind(request: RewindRequest): Promise<Event>;
}

/**
 * Makes the alternative whose first event is `eventId` the current one (a `rewind` before the
 * invocation of the rewind that left it): the conversation, its session state and its artifacts
 * are then as they were when that alternative was left. Resolves the rewind event, or `undefined`
 * when the alternative is current already. Rejects with `InvalidInputError` when `eventId` starts no
 * alternative of the current conversation (another tab may have switched since it was read), and
 * with `SessionNotFoundError` when there is no such session.
 */
export async function switchBranch(store: BranchStore, request: SwitchBranchRequest): Promise<Event | undefined> {
  const { eventId, ...key } = request;
  const session = await store.getSession(key);
  if (!session) {
    throw new SessionNotFoundError(`Session not found: ${key.sessionId} (app "${key.appName}", user "${key.userId}")`);
  }
  for (const point of branchPoints(session.events).values()) {
    const branch = point.alternatives.find((alternative) => alternative.eventId === eventId);
    if (!branch) continue;
    return branch.restoreBefore === undefined
      ? undefined
      : store.rewind({ ...key, beforeInvocationId: branch.restoreBefore });
  }
  throw new InvalidInputError(`eventId: ${eventId} starts no alternative of the session's current conversation`);
}
