import { describe, expect, it } from 'vitest';
import { grid } from '../../test/memberships';
import { GridIndex, visiblePeople, visibleStreams } from './grid';

const allPeople = { text: '', role: '', botsOnly: false, showDeactivated: false, group: '' };
const allStreams = { text: '', access: 'all' as const };

describe('GridIndex', () => {
  it('answers subscriptions from the bitsets', () => {
    const index = GridIndex.of(grid());
    expect(index.subscribed(0, 0)).toBe(true);
    expect(index.subscribed(2, 1)).toBe(false);
    expect(index.subscribed(4, 0)).toBe(true);
    expect(index.subscribed(0, 2)).toBe(false);
    expect(index.cellOf(index.key(3, 2))).toEqual([3, 2]);
  });

  it('gives the reason for the direction a cell would change', () => {
    const member = GridIndex.of(grid('member'));
    // Alan is subscribed to general: removing him needs an administrator.
    expect(member.denied(1, 0)).toMatch(/Only organization administrators/);
    // Claude is not in random: a member may add him.
    expect(member.denied(2, 2)).toBeNull();
    expect(member.denied(3, 0)).toMatch(/Deactivated/);
    expect(GridIndex.of(grid('owner')).denied(1, 0)).toBeNull();
  });
});

describe('badges', () => {
  it('names the role, the bot and its owner, and deactivation; none for a member', () => {
    const index = GridIndex.of(grid());
    expect(index.badges(1)).toEqual([{ text: 'Administrator', bot: false }]);
    expect(index.badges(2)).toEqual([]);
    expect(index.badges(3)).toEqual([{ text: 'Deactivated', bot: false }]);
    expect(index.badges(4)).toEqual([{ text: 'Bot of Ada Lovelace', bot: true }]);
  });
});

describe('filters and sorting', () => {
  const index = GridIndex.of(grid());

  it('hides deactivated people unless asked', () => {
    expect(visiblePeople(index, allPeople, 'name')).toEqual([0, 1, 2, 4]);
    expect(visiblePeople(index, { ...allPeople, showDeactivated: true }, 'name')).toEqual([
      0, 1, 2, 4, 3,
    ]);
  });

  it('filters people by text, role and bots', () => {
    expect(visiblePeople(index, { ...allPeople, text: 'CLAUDE@' }, 'name')).toEqual([2]);
    expect(visiblePeople(index, { ...allPeople, role: 'administrator' }, 'name')).toEqual([1]);
    expect(visiblePeople(index, { ...allPeople, botsOnly: true }, 'name')).toEqual([4]);
  });

  it('filters people by group, subgroups included', () => {
    expect(visiblePeople(index, { ...allPeople, group: '30' }, 'name')).toEqual([1, 2]);
    expect(
      visiblePeople(index, { ...allPeople, group: '30', showDeactivated: true }, 'name'),
    ).toEqual([1, 2, 3]);
    expect(visiblePeople(index, { ...allPeople, group: '31' }, 'name')).toEqual([2]);
    expect(visiblePeople(index, { ...allPeople, group: '99' }, 'name')).toEqual([]);
  });

  it('sorts people by role, then name', () => {
    expect(visiblePeople(index, allPeople, 'role')).toEqual([0, 1, 2, 4]);
    expect(visiblePeople(index, allPeople, 'email')).toEqual([0, 1, 2, 4]);
  });

  it('filters and sorts streams', () => {
    expect(visibleStreams(index, allStreams, 'name')).toEqual([0, 1, 2]);
    expect(visibleStreams(index, { text: '', access: 'private' }, 'name')).toEqual([1]);
    expect(visibleStreams(index, { text: 'RAN', access: 'all' }, 'name')).toEqual([2]);
    expect(visibleStreams(index, allStreams, 'subscribers')).toEqual([0, 1, 2]);
  });
});
