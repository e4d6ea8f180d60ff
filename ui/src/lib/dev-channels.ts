/**
 * The channel-settings commands of the browser preview (`dev-backend.ts`) and of the
 * Channels page's tests: a table in memory, planned and applied as the app does it (one
 * `PATCH /streams/{id}` per channel), with a journal for undo. Cells of channels in
 * `lockedChannels` are denied, as a member sees them.
 */
import type { ApplySummary } from './bindings/ApplySummary';
import type { ChannelCellResult } from './bindings/ChannelCellResult';
import type { ChannelSettingChange } from './bindings/ChannelSettingChange';
import type { ChannelTable } from './bindings/ChannelTable';
import type { GroupOption } from './bindings/GroupOption';
import type { GroupSetting } from './bindings/GroupSetting';
import type { FakeHandlers } from './ipc';

export const CHANNEL_SETTINGS: [name: string, label: string][] = [
  ['can_send_message_group', 'Who can post'],
  ['can_add_subscribers_group', 'Who can add subscribers'],
  ['can_remove_subscribers_group', 'Who can remove subscribers'],
  ['can_subscribe_group', 'Who can join'],
  ['can_administer_channel_group', 'Who administers'],
];

export const DEV_GROUPS: GroupOption[] = [
  { groupId: 10, name: 'role:everyone', label: 'Everyone', isSystemGroup: true },
  { groupId: 11, name: 'role:members', label: 'Members', isSystemGroup: true },
  { groupId: 12, name: 'role:administrators', label: 'Administrators', isSystemGroup: true },
  { groupId: 13, name: 'role:nobody', label: 'Nobody', isSystemGroup: true },
  { groupId: 30, name: 'Platform team', label: 'Platform team', isSystemGroup: false },
  { groupId: 31, name: 'Support', label: 'Support', isSystemGroup: false },
];

const DEFAULTS: Record<string, number> = {
  can_send_message_group: 10,
  can_add_subscribers_group: 11,
  can_remove_subscribers_group: 12,
  can_subscribe_group: 13,
  can_administer_channel_group: 13,
};

/** Zulip refuses `role:everyone` for these. */
const NO_EVERYONE = new Set([
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_subscribe_group',
]);

const NOT_ADMIN = 'You do not have permission to administer this channel.';

function labelOf(value: GroupSetting): string {
  if (typeof value === 'number') {
    return DEV_GROUPS.find((g) => g.groupId === value)?.label ?? `Group ${String(value)}`;
  }
  return `${String(value.direct_members.length)} people`;
}

export interface DevChannel {
  streamId: number;
  name: string;
  description: string;
  inviteOnly: boolean;
  /** Values other than the defaults. */
  values?: Record<string, GroupSetting>;
}

export interface DevChannelOptions {
  /** Channels whose settings the account may not change. */
  lockedChannels?: number[];
  /** Settings whose apply the server refuses, with its message. */
  refuse?: Record<string, string>;
  wait?: (ms: number) => Promise<void>;
}

export function devChannels(
  list: DevChannel[],
  options: DevChannelOptions = {},
): Pick<
  FakeHandlers,
  | 'load_channel_settings'
  | 'plan_channel_setting_changes'
  | 'apply_channel_setting_changes'
  | 'list_channel_setting_applies'
  | 'undo_channel_setting_apply'
> {
  const values = new Map<number, Map<string, GroupSetting>>();
  for (const channel of list) {
    values.set(
      channel.streamId,
      new Map(
        CHANNEL_SETTINGS.map(([name]) => [name, channel.values?.[name] ?? DEFAULTS[name] ?? 13]),
      ),
    );
  }
  const locked = new Set(options.lockedChannels ?? []);
  const journal: { summary: ApplySummary; undo: ChannelSettingChange[] }[] = [];

  const table = (): ChannelTable => ({
    viewer: { userId: 1, role: 'owner', featureLevel: 372 },
    settings: CHANNEL_SETTINGS.map(([name, label]) => ({
      name,
      label,
      readOnly: null,
      choices: DEV_GROUPS.filter((g) => !(g.name === 'role:everyone' && NO_EVERYONE.has(name))).map(
        (g) => g.groupId,
      ),
    })),
    groups: DEV_GROUPS,
    channels: list.map((channel) => ({
      streamId: channel.streamId,
      name: channel.name,
      description: channel.description,
      privacy: channel.inviteOnly ? 'private_protected_history' : 'public',
      isArchived: false,
      subscribed: true,
      cells: CHANNEL_SETTINGS.map(([name]) => {
        const value = values.get(channel.streamId)?.get(name) ?? 13;
        return {
          setting: name,
          value,
          label: labelOf(value),
          denied: locked.has(channel.streamId) ? NOT_ADMIN : null,
        };
      }),
    })),
  });

  const plan = (changes: ChannelSettingChange[]) => {
    const perChannel = new Map<number, string[]>();
    const skipped = [];
    for (const change of changes) {
      if (values.get(change.streamId)?.get(change.setting) === change.value) {
        skipped.push({ change, reason: null });
        continue;
      }
      perChannel.set(change.streamId, [...(perChannel.get(change.streamId) ?? []), change.setting]);
    }
    const requests = [...perChannel].map(([streamId, settings]) => ({ streamId, settings }));
    return {
      requests,
      requestCount: requests.length,
      changeCount: changes.length - skipped.length,
      skipped,
    };
  };

  return {
    load_channel_settings: table,
    plan_channel_setting_changes: ({ request }) => plan(request.changes),
    apply_channel_setting_changes: async ({ request, onProgress }) => {
      const planned = plan(request.changes);
      const results: ChannelCellResult[] = [];
      let done = 0;
      for (const call of planned.requests) {
        await options.wait?.(150);
        const mine = request.changes.filter((c) => c.streamId === call.streamId);
        const refused = mine.map((c) => options.refuse?.[c.setting]).find((m) => m);
        for (const change of mine) {
          const old = values.get(change.streamId)?.get(change.setting) ?? null;
          if (!refused) values.get(change.streamId)?.set(change.setting, change.value);
          results.push({ change, old, attempted: true, error: refused ?? null });
        }
        done++;
        onProgress.onmessage({ done, total: planned.requestCount, waitingSeconds: null });
      }
      const ok = results.filter((r) => r.error === null);
      const id = journal.length + 1;
      journal.unshift({
        summary: {
          id,
          appliedAt: Math.floor(Date.now() / 1000),
          requestsTotal: planned.requestCount,
          requestsSent: planned.requestCount,
          changed: ok.length,
          failed: results.length - ok.length,
          cancelled: false,
        },
        undo: ok.flatMap((r) => (r.old === null ? [] : [{ ...r.change, value: r.old }])),
      });
      return {
        journalId: id,
        requestsTotal: planned.requestCount,
        requestsSent: planned.requestCount,
        cancelled: false,
        results,
      };
    },
    list_channel_setting_applies: () => journal.map((entry) => entry.summary),
    undo_channel_setting_apply: ({ request }) => {
      const entry =
        request.id === null ? journal[0] : journal.find((e) => e.summary.id === request.id);
      return entry?.undo ?? [];
    },
  };
}
