/**
 * The Channels page's read side: channels × Zulip's channel permission settings. Pure
 * functions over the table the backend loads: keys of staged cells, the words of a value
 * a cell will have, privacy in words.
 */
import type { ChannelRow } from '../bindings/ChannelRow';
import type { ChannelTable } from '../bindings/ChannelTable';
import type { GroupSetting } from '../bindings/GroupSetting';
import type { Privacy } from '../bindings/Privacy';

/** A staged cell's key: channel and setting. */
export function settingKey(streamId: number, setting: string): string {
  return `${String(streamId)}:${setting}`;
}

/** `settingKey` read back. */
export function parseSettingKey(key: string): { streamId: number; setting: string } | null {
  const at = key.indexOf(':');
  if (at < 0) return null;
  const streamId = Number(key.slice(0, at));
  if (!Number.isInteger(streamId)) return null;
  return { streamId, setting: key.slice(at + 1) };
}

/** A value as the group id it names; null for an anonymous group. */
export function groupIdOf(value: GroupSetting | null | undefined): number | null {
  return typeof value === 'number' ? value : null;
}

/** What a group id shows as. */
export function groupLabelOf(table: ChannelTable, groupId: number): string {
  return table.groups.find((g) => g.groupId === groupId)?.label ?? `Group ${String(groupId)}`;
}

const PRIVACY: Record<Privacy, string> = {
  public: 'Public',
  web_public: 'Web-public',
  private_shared_history: 'Private, shared history',
  private_protected_history: 'Private, protected history',
};

export function privacyLabel(row: ChannelRow): string {
  return PRIVACY[row.privacy];
}

/** Why a cell may not change: its column's reason (an old server), else the cell's. */
export function cellDenied(table: ChannelTable, row: ChannelRow, setting: string): string | null {
  const column = table.settings.find((s) => s.name === setting);
  if (column?.readOnly) return column.readOnly;
  if (row.isArchived) return 'Archived channels cannot be changed.';
  return row.cells.find((c) => c.setting === setting)?.denied ?? null;
}
