import { describe, expect, it } from 'vitest';
import { planCalls } from './dev-memberships';

describe("the browser preview's planner", () => {
  it('puts streams that change for the same people in one call per action', () => {
    const calls = planCalls([
      { userId: 2, streamId: 1, subscribe: false },
      { userId: 3, streamId: 1, subscribe: false },
      { userId: 3, streamId: 2, subscribe: false },
      { userId: 2, streamId: 2, subscribe: false },
      { userId: 2, streamId: 3, subscribe: false },
      { userId: 2, streamId: 1, subscribe: true },
    ]);
    expect(calls).toEqual([
      { subscribe: false, streamIds: [1, 2], userIds: [2, 3] },
      { subscribe: false, streamIds: [3], userIds: [2] },
      { subscribe: true, streamIds: [1], userIds: [2] },
    ]);
  });
});
