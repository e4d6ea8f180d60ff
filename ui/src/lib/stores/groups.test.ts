import { waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { GridIndex } from '../memberships/grid';
import { useFakeBackend } from '../../test/backend';
import { grid } from '../../test/memberships';
import { encodeGrid } from '../memberships/wire';
import { cellKey, groups, GroupsIndex } from './groups.svelte';
import { memberships } from './memberships.svelte';

async function loaded(handlers: Parameters<typeof useFakeBackend>[0] = {}) {
  const backend = useFakeBackend({
    load_memberships: () => encodeGrid(grid()),
    list_membership_applies: () => [],
    list_group_member_applies: () => [],
    ...handlers,
  });
  void memberships.ensure('acme:1');
  groups.ensure('acme:1');
  await waitFor(() => {
    expect(groups.index).not.toBeNull();
  });
  return backend;
}

describe('GroupsIndex', () => {
  it('knows direct members by user id and why a cell is locked', () => {
    const data = grid();
    const theory = data.groups[1];
    if (theory) theory.removeDenied = 'Only its managers can remove members.';
    const index = new GroupsIndex(GridIndex.of(data));
    expect(index.member(2, 30)).toBe(true);
    // Claude is in research through its subgroup only: not a direct member.
    expect(index.member(4, 30)).toBe(false);
    expect(index.denied(4, 30)).toBeNull();
    expect(index.denied(4, 31)).toBe('Only its managers can remove members.');
    expect(index.denied(1, 31)).toBeNull();
    // Tim is deactivated: he may leave a group, not join one.
    expect(index.denied(7, 31)).toBe('Tim Berners-Lee is deactivated');
    expect(index.denied(7, 30)).toBeNull();
    expect(index.denied(999, 30)).toBe('Unknown person or group');
  });
});

describe('groups store', () => {
  it('stages only differences from the server and unstages on the way back', async () => {
    await loaded();
    expect(groups.set(2, 30, true)).toBe(false);
    expect(groups.staged.size).toBe(0);
    groups.toggle(1, 30);
    expect(groups.state(1, 30)).toBe(true);
    expect(groups.changes()).toEqual([{ userId: 1, groupId: 30, member: true }]);
    groups.toggle(1, 30);
    expect(groups.staged.size).toBe(0);
    expect(
      groups.stage([
        { userId: 2, groupId: 30, member: false },
        { userId: 2, groupId: 30, member: true },
        { userId: 4, groupId: 31, member: false },
      ]),
    ).toBe(2);
    expect(groups.changes()).toEqual([{ userId: 4, groupId: 31, member: false }]);
  });

  it('undo stages what the journal reverses, and is offered after a restart', async () => {
    const backend = await loaded({
      // The journal's reverse of the apply below: the fake grid did not change, so it equals
      // the server and stages nothing.
      undo_group_member_apply: () => [{ userId: 1, groupId: 30, member: false }],
      apply_group_member_changes: () => ({
        requestsTotal: 2,
        requestsSent: 2,
        cells: [
          { change: { userId: 1, groupId: 30, member: true }, error: null },
          { change: { userId: 4, groupId: 31, member: false }, error: 'No' },
        ],
      }),
    });
    groups.toggle(1, 30);
    groups.toggle(4, 31);
    await groups.apply();
    expect(groups.pending.undoReady).toBe(true);
    // The failed cell stays staged with the message (the fake server did not change).
    expect(groups.failed.get(cellKey(4, 31))).toBe('No');
    groups.discardAll();
    // The fake grid did not change either, so the reverse equals the server: nothing staged.
    expect(await groups.pending.undo()).toBe(0);
    expect(backend.calls.filter(([name]) => name === 'undo_group_member_apply')).toHaveLength(1);
    expect(groups.pending.undoReady).toBe(false);
    expect(groups.staged.size).toBe(0);

    // Another session of the app: the journal still holds the apply.
    groups.ensure(null);
    useFakeBackend({
      load_memberships: () => encodeGrid(grid()),
      list_membership_applies: () => [],
      list_group_member_applies: () => [
        {
          id: 1,
          appliedAt: 0,
          requestsTotal: 2,
          requestsSent: 2,
          cancelled: false,
          changed: 1,
          failed: 1,
        },
      ],
    });
    groups.ensure('acme:1');
    await waitFor(() => {
      expect(groups.pending.undoReady).toBe(true);
    });
  });

  it('drops staging when the account changes', async () => {
    await loaded();
    groups.toggle(1, 30);
    groups.ensure('other:1');
    expect(groups.staged.size).toBe(0);
  });
});
