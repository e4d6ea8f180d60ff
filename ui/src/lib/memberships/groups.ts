/**
 * User groups in the UI: labels for Zulip's system groups and the order groups are listed
 * in. Pure functions; the store stages a group's cells.
 */
import type { GridGroup } from '../bindings/GridGroup';

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
  const collator = new Intl.Collator(undefined, { sensitivity: 'base' });
  return [...groups].sort(
    (a, b) =>
      Number(a.isSystemGroup) - Number(b.isSystemGroup) ||
      collator.compare(groupLabel(a), groupLabel(b)) ||
      a.groupId - b.groupId,
  );
}
