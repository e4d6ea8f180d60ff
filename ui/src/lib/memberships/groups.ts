/**
 * User groups in the UI: labels for Zulip's system groups and the order groups are listed
 * in. Pure functions; the store stages a group's cells.
 */
import type { GridGroup } from '../bindings/GridGroup';
import { compareNames } from '../collate';
import type { GridIndex } from './grid';

/** Zulip's system groups (`role:members`, …) as people say them. */
const SYSTEM_LABELS: Record<string, string> = {
  'role:owners': 'Owners',
  'role:administrators': 'Administrators',
  'role:moderators': 'Moderators',
  'role:fullmembers': 'Full members',
  'role:members': 'Members',
  'role:everyone': 'Everyone',
  'role:internet': 'Everyone on the internet',
  'role:nobody': 'Nobody',
};

export function systemGroupLabel(name: string): string {
  return SYSTEM_LABELS[name] ?? name;
}

/** The name a group is shown with. */
export function groupLabel(group: GridGroup): string {
  return group.isSystemGroup ? systemGroupLabel(group.name) : group.name;
}

/** Groups people made first (by name), then system groups: the ones admins manage. */
export function sortedGroups(groups: readonly GridGroup[]): GridGroup[] {
  return [...groups].sort(
    (a, b) =>
      Number(a.isSystemGroup) - Number(b.isSystemGroup) ||
      compareNames(groupLabel(a), groupLabel(b)) ||
      a.groupId - b.groupId,
  );
}

/**
 * Why toggling a group row's cell would change nothing: every member's cell it would flip
 * (to `value`) is one the account may not change, e.g. a member removing others. The first
 * such reason, or `null` when at least one cell would change.
 */
export function groupCellDenied(
  index: GridIndex,
  members: Iterable<number>,
  s: number,
  value: boolean,
  state: (p: number, s: number) => boolean,
): string | null {
  let reason: string | null = null;
  for (const p of members) {
    if (state(p, s) === value) continue;
    const denied = index.denied(p, s);
    if (denied === null) return null;
    reason ??= denied;
  }
  return reason;
}
