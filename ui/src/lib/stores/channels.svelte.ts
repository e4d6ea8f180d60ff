import { SvelteSet } from 'svelte/reactivity';
import {
  cellDenied,
  groupIdOf,
  groupLabelOf,
  parseSettingKey,
  settingKey,
} from '../channels/model';
import type { ChannelApplyOutcome } from '../bindings/ChannelApplyOutcome';
import type { ChannelCell } from '../bindings/ChannelCell';
import type { ChannelPlanPreview } from '../bindings/ChannelPlanPreview';
import type { ChannelRow } from '../bindings/ChannelRow';
import type { ChannelSettingChange } from '../bindings/ChannelSettingChange';
import type { ChannelTable } from '../bindings/ChannelTable';
import { ipc, type IpcError } from '../ipc';
import { Staging, type PendingSection } from '../staging/staging.svelte';
import { resettable } from './registry';
import { Resource } from './resource.svelte';

/**
 * The Channels page's state: the table (channels × permission settings), staged cells
 * (channel × setting → the group it will name) in the shared staging model, the channels
 * selected for a bulk edit, the cell whose editor is open.
 */
class ChannelsState {
  readonly #table = new Resource(
    () => ipc.loadChannelSettings(),
    () => {
      this.#loaded();
    },
  );

  readonly pending: Staging<
    string,
    number,
    ChannelSettingChange,
    ChannelPlanPreview,
    ChannelApplyOutcome
  > = new Staging({
    changes: () => this.changes(),
    plan: (changes) => ipc.planChannelSettingChanges(changes),
    apply: (changes, onProgress) => ipc.applyChannelSettingChanges(changes, onProgress),
    planned: (plan) =>
      plan.requestCount === 0
        ? null
        : {
            count: plan.requestCount,
            detail: plan.requests
              .map((call) => `#${this.#name(call.streamId)}: ${call.settings.length} settings`)
              .join('; '),
          },
    counts: (outcome) => {
      const failed = outcome.results.filter((r) => r.error !== null || !r.attempted).length;
      return {
        done: outcome.results.length - failed,
        sent: outcome.requestsSent,
        failed,
        cancelled: outcome.cancelled,
      };
    },
    settle: () => this.reload(),
    restage: (outcome) => {
      for (const result of outcome.results) {
        if (result.error === null && result.attempted) continue;
        const { streamId, setting, value } = result.change;
        const groupId = groupIdOf(value);
        if (groupId === null) continue;
        this.#set(streamId, setting, groupId);
        if (result.error !== null) this.failed.set(settingKey(streamId, setting), result.error);
      }
    },
    reverse: () => ipc.undoChannelSettingApply(null),
    journalled: async () => (await ipc.listChannelSettingApplies()).length,
    stage: (changes) => this.stage(changes),
    journalId: (outcome) => outcome.journalId,
  });

  /** Staged cells: `settingKey` → the group id the setting will name. */
  readonly staged = this.pending.values;
  readonly failed = this.pending.failed;
  /** Channels (ids) picked for a bulk edit. */
  readonly selected = new SvelteSet<number>();
  /** Channels whose name or description holds this. */
  text = $state('');
  /** The cell whose editor is open. */
  editing = $state<{ streamId: number; setting: string } | null>(null);

  get table(): ChannelTable | null {
    return this.#table.data;
  }

  get error(): IpcError | null {
    return this.#table.error;
  }

  /** Loads the table for `key` (account and data epoch); another account drops staging. */
  ensure(key: string | null): Promise<void> {
    if (key !== this.#table.key) {
      this.pending.clear();
      this.selected.clear();
      this.editing = null;
      if (key !== null) void this.pending.loadJournal();
    }
    return this.#table.ensure(key);
  }

  reload(): Promise<void> {
    return this.#table.reload();
  }

  /** A table arrived: staged cells that now match the server, or name gone channels, go. */
  #loaded(): void {
    for (const change of this.changes()) {
      const row = this.row(change.streamId);
      const groupId = groupIdOf(change.value);
      if (
        !row ||
        groupId === null ||
        groupIdOf(this.cell(row, change.setting)?.value) === groupId
      ) {
        this.pending.put(settingKey(change.streamId, change.setting), undefined);
      }
    }
    for (const id of [...this.selected]) if (!this.row(id)) this.selected.delete(id);
  }

  row(streamId: number): ChannelRow | undefined {
    return this.table?.channels.find((c) => c.streamId === streamId);
  }

  #name(streamId: number): string {
    return this.row(streamId)?.name ?? String(streamId);
  }

  cell(row: ChannelRow, setting: string): ChannelCell | undefined {
    return row.cells.find((c) => c.setting === setting);
  }

  /** The channels shown: not archived, filtered by name or description. */
  visible(): ChannelRow[] {
    const table = this.table;
    if (!table) return [];
    const needle = this.text.trim().toLowerCase();
    return table.channels.filter(
      (row) =>
        !row.isArchived &&
        (needle === '' ||
          row.name.toLowerCase().includes(needle) ||
          row.description.toLowerCase().includes(needle)),
    );
  }

  denied(row: ChannelRow, setting: string): string | null {
    const table = this.table;
    return table ? cellDenied(table, row, setting) : 'Not loaded';
  }

  /** The group the setting will name after apply (null: an anonymous group, unchanged). */
  groupAfter(row: ChannelRow, setting: string): number | null {
    return (
      this.staged.get(settingKey(row.streamId, setting)) ??
      groupIdOf(this.cell(row, setting)?.value)
    );
  }

  /** What the cell shows: the staged group's name, else the server's value in words. */
  label(row: ChannelRow, setting: string): string {
    const table = this.table;
    const staged = this.staged.get(settingKey(row.streamId, setting));
    if (table && staged !== undefined) return groupLabelOf(table, staged);
    return this.cell(row, setting)?.label ?? '—';
  }

  isStaged(streamId: number, setting: string): boolean {
    return this.staged.has(settingKey(streamId, setting));
  }

  /** Stages one cell inside the open step; false when it may not change or is already so. */
  #set(streamId: number, setting: string, groupId: number): boolean {
    const row = this.row(streamId);
    if (!row || this.denied(row, setting) !== null) return false;
    const differs = groupIdOf(this.cell(row, setting)?.value) !== groupId;
    this.pending.put(settingKey(streamId, setting), differs ? groupId : undefined);
    return differs;
  }

  /**
   * Sets `setting` to `groupId` on every channel of `streamIds` as one step (one Ctrl+Z);
   * channels the account may not change are left out. Returns how many cells differ.
   */
  setMany(streamIds: Iterable<number>, setting: string, groupId: number): number {
    let staged = 0;
    this.pending.step(() => {
      for (const id of streamIds) if (this.#set(id, setting, groupId)) staged++;
    });
    return staged;
  }

  /** Stage changes given by the backend (an undo); returns how many differ. */
  stage(changes: readonly ChannelSettingChange[]): number {
    let staged = 0;
    this.pending.step(() => {
      for (const change of changes) {
        const groupId = groupIdOf(change.value);
        if (groupId !== null && this.#set(change.streamId, change.setting, groupId)) staged++;
      }
    });
    return staged;
  }

  /** Unstage one cell. */
  discard(streamId: number, setting: string): void {
    this.pending.step(() => {
      this.pending.put(settingKey(streamId, setting), undefined);
    });
  }

  changes(): ChannelSettingChange[] {
    const changes: ChannelSettingChange[] = [];
    for (const [key, value] of this.staged) {
      const at = parseSettingKey(key);
      if (at) changes.push({ ...at, value });
    }
    return changes;
  }

  /** The staged cells as the pending list shows them, by channel. */
  sections(): PendingSection[] {
    const table = this.table;
    if (!table) return [];
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt on every call
    const byChannel = new Map<number, PendingSection>();
    for (const change of this.changes()) {
      let section = byChannel.get(change.streamId);
      if (!section) {
        section = { key: change.streamId, title: `#${this.#name(change.streamId)}`, items: [] };
        byChannel.set(change.streamId, section);
      }
      const column = table.settings.find((s) => s.name === change.setting);
      const key = settingKey(change.streamId, change.setting);
      const groupId = groupIdOf(change.value);
      section.items.push({
        key,
        add: true,
        verb: 'Set',
        label: `${column?.label ?? change.setting}: ${groupId === null ? '' : groupLabelOf(table, groupId)}`,
        failure: this.failed.get(key) ?? null,
        discard: () => {
          this.discard(change.streamId, change.setting);
        },
      });
    }
    return [...byChannel.values()].sort((a, b) => a.title.localeCompare(b.title));
  }

  clear(): void {
    this.#table.clear();
    this.pending.clear();
    this.selected.clear();
    this.text = '';
    this.editing = null;
  }
}

export const channels = resettable(new ChannelsState(), (state) => {
  state.clear();
});
