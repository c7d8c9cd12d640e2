import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PendingPushRequest } from '@mfa-portal/shared';
import { fakeEventStreams } from '../lib/test/fake-api';
import type { StoredAccount } from './lib/store';
import { fakeApi, json, pendingRequest, testAccount } from './test/fake-api';
import { useRequests } from './use-requests';

/** Fetches of the list, each answered only when the test says, with what the server read when asked. */
function heldLists() {
  const waiting: Array<(requests: PendingPushRequest[]) => void> = [];
  return {
    handler: () => new Promise<Response>((resolve) => waiting.push((requests) => resolve(json(200, { requests })))),
    /** The oldest fetch not yet answered, once it has been asked. */
    async next(): Promise<(requests: PendingPushRequest[]) => void> {
      await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
      return waiting.shift()!;
    },
  };
}

const ids = (requests: PendingPushRequest[]) => requests.map((r) => r.id);

async function setUp() {
  const account: StoredAccount = await testAccount();
  const stream = fakeEventStreams();
  const lists = heldLists();
  fakeApi({
    'GET /authenticator/api/requests': lists.handler,
    'GET /authenticator/api/events': stream.handler,
  });
  const accounts = [account];
  const hook = renderHook(() => useRequests(accounts, () => {}));
  // The fetch the app makes when it opens, not yet answered, and its stream, open.
  const answerFirst = await lists.next();
  await waitFor(() => expect(stream.opened).toBe(1));
  return { hook, stream, lists, answerFirst };
}

describe('the phone’s list of waiting requests', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps a request streamed while an older fetch of the list was on its way', async () => {
    const { hook, stream, answerFirst } = await setUp();
    const request = pendingRequest();
    stream.send('request', request);
    await waitFor(() => expect(ids(hook.result.current.requests)).toEqual([request.id]));

    // The server read the list before the request existed; its answer comes last.
    await act(async () => answerFirst([]));
    expect(ids(hook.result.current.requests)).toEqual([request.id]);
  });

  it('does not bring back a request answered here, or closed, when a late list still has it', async () => {
    const { hook, stream, answerFirst } = await setUp();
    const answered = pendingRequest();
    const closed = pendingRequest({ id: '1c7e2f3a-4d5b-4c6d-8e7f-8091a2b3c4d5' });
    stream.send('request', answered);
    stream.send('request', closed);
    await waitFor(() => expect(hook.result.current.requests).toHaveLength(2));

    act(() => hook.result.current.remove(answered.id));
    stream.send('closed', { id: closed.id, state: 'timeout' });
    await waitFor(() => expect(hook.result.current.requests).toEqual([]));

    await act(async () => answerFirst([answered, closed]));
    expect(hook.result.current.requests).toEqual([]);
  });

  it('still takes the list as the truth for what it read: a request gone from it is dropped', async () => {
    const { hook, lists, answerFirst } = await setUp();
    const kept = pendingRequest();
    const other = pendingRequest({ id: '2d8f3a4b-5e6c-4d7e-9f80-91a2b3c4d5e6' });
    await act(async () => answerFirst([kept, other]));
    expect(hook.result.current.requests).toHaveLength(2);

    // A second fetch (the app back in the foreground) reads only one: the other ended unseen.
    const refreshed = hook.result.current.refresh();
    const answerAgain = await lists.next();
    await act(async () => {
      answerAgain([kept]);
      await refreshed;
    });
    expect(ids(hook.result.current.requests)).toEqual([kept.id]);
  });

  it('shows again a request whose answer met a server error, if the next list still has it', async () => {
    const { hook, stream, answerFirst } = await setUp();
    const request = pendingRequest();
    stream.send('request', request);
    await waitFor(() => expect(hook.result.current.requests).toHaveLength(1));

    act(() => hook.result.current.remove(request.id, false));
    expect(hook.result.current.requests).toEqual([]);
    await act(async () => answerFirst([request]));
    expect(ids(hook.result.current.requests)).toEqual([request.id]);
  });
});
