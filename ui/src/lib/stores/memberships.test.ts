import { describe, expect, it } from 'vitest';
import { useFakeBackend } from '../../test/backend';
import { grid } from '../../test/memberships';
import { encodeGrid } from '../memberships/wire';
import { memberships } from './memberships.svelte';

describe('the memberships store', () => {
  it('drops the previous grid as soon as the account or its data changes', async () => {
    let answer: (grid: ArrayBuffer) => void = () => undefined;
    let calls = 0;
    useFakeBackend({
      load_memberships: () => {
        calls++;
        if (calls === 1) return encodeGrid(grid());
        return new Promise<ArrayBuffer>((resolve) => {
          answer = resolve;
        });
      },
      list_membership_applies: () => [],
    });
    void memberships.ensure('1:0');
    await expect.poll(() => memberships.index).not.toBeNull();
    memberships.toggle(0, 0);
    expect(memberships.staged.size).toBe(1);

    void memberships.ensure('2:0');
    // While the other account's grid loads, nothing of the first one is shown or staged.
    expect(memberships.index).toBeNull();
    expect(memberships.staged.size).toBe(0);
    memberships.toggle(0, 0);
    expect(memberships.staged.size).toBe(0);

    answer(encodeGrid(grid('member')));
    await expect.poll(() => memberships.index?.grid.viewer.role).toBe('member');
    expect(memberships.staged.size).toBe(0);
  });

  it("forgets the last apply's outcome when the account changes", async () => {
    useFakeBackend({
      load_memberships: () => encodeGrid(grid()),
      list_membership_applies: () => [],
      apply_membership_changes: () => ({
        journalId: 1,
        requestsTotal: 1,
        requestsSent: 1,
        cancelled: false,
        results: [
          { userId: 2, streamId: 1, subscribe: false, status: 'removed', ok: true, message: null },
        ],
      }),
    });
    void memberships.ensure('1:0');
    await expect.poll(() => memberships.index).not.toBeNull();
    memberships.toggle(1, 0);
    await memberships.apply();
    expect(memberships.outcome?.journalId).toBe(1);

    void memberships.ensure('2:0');
    expect(memberships.outcome).toBeNull();
    expect(memberships.applyError).toBeNull();
  });
});
