/**
 * The Channels page's data, in the shapes of the app's channel commands (Zulip's
 * `GET /streams` group settings and `PATCH /streams/{id}`, camelCased as the bindings are).
 */
import type { ApplyProgress } from '../bindings/ApplyProgress';
import type { ApplySummary } from '../bindings/ApplySummary';
import type { Role } from '../bindings/Role';

/** A group-setting value as Zulip sends it: a group id, or an anonymous group. */
export type GroupSetting = number | { direct_members: number[]; direct_subgroups: number[] };

export type Privacy =
  'public' | 'web_public' | 'private_shared_history' | 'private_protected_history';

/** One channel's value of one setting. */
export interface ChannelCell {
  setting: string;
  /** The value as Zulip gives it; `null` when the server did not send it. */
  value: GroupSetting | null;
  /** What the value names, for the cell. */
  label: string;
  /** Why the account may not change it; `null`: it may. */
  denied: string | null;
}

export interface ChannelRow {
  streamId: number;
  name: string;
  description: string;
  privacy: Privacy;
  isArchived: boolean;
  subscribed: boolean;
  /** One per column of `ChannelTable.settings`, in its order. */
  cells: ChannelCell[];
}

export interface ChannelViewer {
  userId: number;
  role: Role;
  featureLevel: number;
}

export interface GroupOption {
  groupId: number;
  name: string;
  label: string;
  isSystemGroup: boolean;
}

/** One column: a channel setting that names a group. */
export interface PermissionSetting {
  name: string;
  label: string;
  /** Why no cell of the column can change; `null`: cells follow the account's rights. */
  readOnly: string | null;
  /** The groups the setting may name, by id. */
  choices: number[];
}

export interface ChannelTable {
  viewer: ChannelViewer;
  settings: PermissionSetting[];
  groups: GroupOption[];
  channels: ChannelRow[];
}

/** One staged cell: set `setting` of channel `streamId` to `value`. */
export interface ChannelSettingChange {
  streamId: number;
  setting: string;
  value: GroupSetting;
}

export interface PlannedChannelCall {
  streamId: number;
  settings: string[];
}

export interface SkippedChannelChange {
  change: ChannelSettingChange;
  reason: string | null;
}

export interface ChannelPlanPreview {
  requests: PlannedChannelCall[];
  requestCount: number;
  changeCount: number;
  skipped: SkippedChannelChange[];
}

export interface ChannelCellResult {
  change: ChannelSettingChange;
  old: GroupSetting | null;
  attempted: boolean;
  error: string | null;
}

export interface ChannelApplyOutcome {
  journalId: number | null;
  requestsTotal: number;
  requestsSent: number;
  cancelled: boolean;
  results: ChannelCellResult[];
}

/** The channel commands, as `ipc.ts` will wrap them. */
export interface ChannelCommands {
  loadChannelSettings(): Promise<ChannelTable>;
  planChannelSettingChanges(changes: ChannelSettingChange[]): Promise<ChannelPlanPreview>;
  applyChannelSettingChanges(
    changes: ChannelSettingChange[],
    onProgress: (progress: ApplyProgress) => void,
  ): Promise<ChannelApplyOutcome>;
  listChannelSettingApplies(): Promise<ApplySummary[]>;
  undoChannelSettingApply(id: number | null): Promise<ChannelSettingChange[]>;
}
