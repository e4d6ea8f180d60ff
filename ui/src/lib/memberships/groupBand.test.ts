import { describe, expect, it } from 'vitest';
import type { GridGroup } from '../bindings/GridGroup';
import { HEAD_H, ROW } from './gridGeometry';
import { bandGroups, bandRows, bodyTop } from './groupBand';

const group = (groupId: number, name: string, isSystemGroup = false): GridGroup => ({
  groupId,
  name,
  description: '',
  isSystemGroup,
  directMembers: [],
  directSubgroupIds: [],
  members: [],
  addDenied: null,
  removeDenied: null,
});

describe('the group rows band', () => {
  const groups = [
    group(1, 'zeta'),
    group(2, 'alpha'),
    group(3, 'role:members', true),
    ...Array.from({ length: 20 }, (_, i) => group(10 + i, `team ${String(i).padStart(2, '0')}`)),
  ];

  it('shows the picked group, or every group people made, by name', () => {
    expect(bandGroups(groups, false, undefined, 800).groups).toEqual([]);
    expect(bandGroups(groups, false, groups[2], 800).groups.map((g) => g.groupId)).toEqual([3]);
    const every = bandGroups(groups, true, undefined, 2000);
    expect(every.groups[0]?.name).toBe('alpha');
    expect(every.groups.some((g) => g.isSystemGroup)).toBe(false);
    expect(every.wanted).toBe(22);
  });

  it('takes at most half of the body, and always shows one group', () => {
    const height = HEAD_H + 10 * ROW;
    const { groups: shown, wanted } = bandGroups(groups, true, undefined, height);
    // Five rows: the legend's and four groups'.
    expect(bandRows(shown.length)).toBe(5);
    expect(wanted).toBe(22);
    expect(bandGroups(groups, true, undefined, HEAD_H).groups).toHaveLength(1);
  });

  it('puts the people below the headers and the band', () => {
    expect(bandRows(0)).toBe(0);
    expect(bodyTop(0)).toBe(HEAD_H);
    expect(bodyTop(bandRows(2))).toBe(HEAD_H + 3 * ROW);
  });
});
