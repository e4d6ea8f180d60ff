/**
 * The memberships grid's group rows: frozen rows between the channels' headers and the
 * people, sharing the channels' columns. The band's first row holds the legend of a group
 * cell's states and each channel's "sync with a group" button; one row per group follows.
 *
 * Rows are counted top to bottom in one sequence (`gridNav` positions): `-1` is the
 * channels' header row, `0` the band's first row, `1..groups` the group rows, then the
 * people. The arrows cross from the people into the band and back like any other rows.
 */
import type { GridGroup } from '../bindings/GridGroup';
import type { GridIndex } from './grid';
import { HEAD_H, ROW } from './gridGeometry';
import { groupCellDenied, sortedGroups } from './groups';

/** A group cell's painted states (sprite bits, shared with `gridPainter`). */
export const CHECKED = 1;
export const STAGED = 2;
export const FAILED = 4;
export const DENIED = 8;
/** Some, not all, of the group's members subscribed: a half-filled box. */
export const MIXED = 16;

/** The groups the band shows, and how many were asked for. */
export interface BandGroups {
  groups: GridGroup[];
  /** How many groups would show with room for all (more than `groups.length`: cut). */
  wanted: number;
}

/**
 * The groups shown as rows: the group picked in the toolbar, or every group people made
 * (`every`). The band takes at most half of the grid's body (`height` is the grid's), so
 * people always keep the other half; the groups past that are counted, not shown.
 */
export function bandGroups(
  all: readonly GridGroup[],
  every: boolean,
  picked: GridGroup | undefined,
  height: number,
): BandGroups {
  const wanted = every ? sortedGroups(all).filter((g) => !g.isSystemGroup) : picked ? [picked] : [];
  // Half the body, less the band's first row; at least one group.
  const room = Math.max(1, Math.floor((height - HEAD_H) / 2 / ROW) - 1);
  return { groups: wanted.slice(0, room), wanted: wanted.length };
}

/** How many rows the band takes: none without groups, else the legend row and one each. */
export function bandRows(groups: number): number {
  return groups > 0 ? groups + 1 : 0;
}

/** Where the people's rows start: below the channels' headers and the band. */
export function bodyTop(band: number): number {
  return HEAD_H + band * ROW;
}

/** What a group cell says of its state, for screen readers. */
export function stateWord(state: 'true' | 'false' | 'mixed'): string {
  return state === 'true'
    ? 'all subscribed'
    : state === 'mixed'
      ? 'some subscribed'
      : 'none subscribed';
}

/** The legend of the band's cells, in words. */
export const LEGEND =
  "Group rows: a box is filled when all of the group's members are subscribed to the channel, half filled when some are, empty when none are.";

/** What a group cell needs from the memberships state. */
export interface GroupCellSource {
  index: GridIndex;
  groupState(groupId: number, s: number): 'true' | 'false' | 'mixed';
  state(p: number, s: number): boolean;
  isStaged(p: number, s: number): boolean;
}

/**
 * A group cell's state, and why it is locked (`null`: toggling it changes at least one
 * member's cell), as the DOM mirror and the painter both show it.
 */
export function groupCell(
  source: GroupCellSource,
  group: GridGroup,
  s: number,
): { state: 'true' | 'false' | 'mixed'; denied: string | null; staged: boolean } {
  const state = source.groupState(group.groupId, s);
  const members = source.index.groupMembers(group.groupId) ?? new Set<number>();
  const denied = groupCellDenied(source.index, members, s, state !== 'true', (p, t) =>
    source.state(p, t),
  );
  let staged = false;
  for (const p of members) {
    if (source.isStaged(p, s)) {
      staged = true;
      break;
    }
  }
  return { state, denied, staged };
}

/** `groupCell` as the painter's sprite bits. */
export function groupCellBits(source: GroupCellSource, group: GridGroup, s: number): number {
  const { state, denied, staged } = groupCell(source, group, s);
  return (
    (state === 'true' ? CHECKED : state === 'mixed' ? MIXED : 0) |
    (staged ? STAGED : 0) |
    (denied !== null ? DENIED : 0)
  );
}
