/**
 * Live values that are re-read whole on each change they may depend on: a
 * listing page, a user's state, an app's state. Each is one key-range or
 * one-record read; nothing is published when the value read equals the held one.
 */

import { jsonEqual } from '../core/json-equal.js';
import type { ChangeFilter, StoreChange } from '../database/changes.js';
import type { AppStateRequest, ListSessionsRequest, ListSessionsResponse, UserStateRequest } from '../types.js';
import { LiveQueryBase, UNCHANGED } from './query.js';
import { scopesOf } from './scopes.js';
import type { LiveOptions, LiveStore } from './types.js';

class RereadQuery<T> extends LiveQueryBase<T> {
  constructor(
    store: LiveStore,
    filter: ChangeFilter,
    private readonly read: () => Promise<T>,
    private readonly relevant: (change: StoreChange) => boolean,
    options?: LiveOptions,
  ) {
    super(store, filter, options);
  }

  protected reset(): void {}

  protected accept(change: StoreChange): boolean {
    return this.relevant(change);
  }

  protected async refresh(held: T | undefined): Promise<T | typeof UNCHANGED> {
    const next = await this.read();
    return jsonEqual(next, held) ? UNCHANGED : next;
  }
}

/** A draft's write changes no session, state or listing. */
const always = (change: StoreChange): boolean => change.type !== 'drafted';
const writesUser = (change: StoreChange): boolean => scopesOf(change).user;
const writesApp = (change: StoreChange): boolean => scopesOf(change).app;

/** A page of `listSessions`: any change in the app may move, add, drop or re-state a listed session (`app:` keys are in every user's). */
export function liveSessions(
  store: LiveStore,
  request: ListSessionsRequest,
  options?: LiveOptions,
): LiveQueryBase<ListSessionsResponse> {
  return new RereadQuery(store, { appName: request.appName }, () => store.listSessions(request), always, options);
}

export function liveUserState(
  store: LiveStore,
  request: UserStateRequest,
  options?: LiveOptions,
): LiveQueryBase<Record<string, unknown>> {
  const { appName, userId } = request;
  return new RereadQuery(
    store,
    { appName, userId },
    () => store.getUserState({ appName, userId }),
    writesUser,
    options,
  );
}

export function liveAppState(
  store: LiveStore,
  request: AppStateRequest,
  options?: LiveOptions,
): LiveQueryBase<Record<string, unknown>> {
  const { appName } = request;
  return new RereadQuery(store, { appName }, () => store.getAppState({ appName }), writesApp, options);
}
