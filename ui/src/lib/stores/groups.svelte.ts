import { SvelteSet } from 'svelte/reactivity';
import type { GridGroup } from '../bindings/GridGroup';
import type { GroupApplyReport } from '../bindings/GroupApplyReport';
import type { GroupMemberChange } from '../bindings/GroupMemberChange';
import type { GroupPlanPreview } from '../bindings/GroupPlanPreview';
import { Action } from '../action.svelte';
import { ipc, type IpcError } from '../ipc';
import type { CellMap } from '../memberships/cellMap.svelte';
import type { GridIndex } from '../memberships/grid';
import { groupLabel, sortedGroups } from '../memberships/groups';
import { Staging, type PendingIds, type PendingSection } from '../staging/staging.svelte';
import { memberships } from './memberships.svelte';
import { resettable } from './registry';

/** The groups page's pending bar keeps the test ids it was built with. */
export const GROUP_PENDING_IDS: PendingIds = {
  count: 'gpending-count',
  planned: 'gplanned-requests',
  apply: 'gapply-changes',
  status: 'gapply-status',
  undo: 'gundo',
};

/** A staged cell's key: person's user id and group id. */
export function cellKey(userId: number, groupId: number): string {
  return `${String(userId)}:${String(groupId)}`;
}

/**
 * The groups grid's read side, built once per loaded memberships grid: who is a direct
 * member of which group, by user id.
 */
export class GroupsIndex {
  readonly groups: GridGroup[];
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- built once per grid, not state
  readonly #direct = new Map<number, Set<number>>();

  constructor(readonly grid: GridIndex) {
    this.groups = sortedGroups(grid.grid.groups);
    for (const group of grid.grid.groups) {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- built once per grid, not state
      const users = new Set<number>();
      for (const p of group.directMembers) {
        const person = grid.person(p);
        if (person) users.add(person.userId);
      }
      this.#direct.set(group.groupId, users);
    }
  }

  /** Whether the server has `userId` as a direct member of `groupId`. */
  member(userId: number, groupId: number): boolean {
    return this.#direct.get(groupId)?.has(userId) ?? false;
  }

  /** Why the account may not flip this cell now; `null`: it may. */
  denied(userId: number, groupId: number): string | null {
    const group = this.grid.groupById.get(groupId);
    const p = this.grid.personAt.get(userId);
    const person = p === undefined ? undefined : this.grid.person(p);
    if (!group || !person) return 'Unknown person or group';
    if (!person.isActive && !this.member(userId, groupId)) {
      return `${person.fullName} is deactivated`;
    }
    return this.member(userId, groupId) ? group.removeDenied : group.addDenied;
  }
}

const indexes = new WeakMap<GridIndex, GroupsIndex>();

function groupsIndexOf(grid: GridIndex): GroupsIndex {
  let index = indexes.get(grid);
  if (!index) {
    index = new GroupsIndex(grid);
    indexes.set(grid, index);
  }
  return index;
}

/**
 * The groups page's state: staged cells (user × group → wanted membership) in the shared
 * staging model (plan, apply with progress, undo of the last apply), the people selected
 * for a new group. The grid itself is the memberships store's.
 */
class GroupsState {
  readonly pending: Staging<
    string,
    boolean,
    GroupMemberChange,
    GroupPlanPreview,
    GroupApplyReport
  > = new Staging({
    changes: () => this.changes(),
    plan: (changes) => ipc.planGroupMemberChanges(changes),
    apply: (changes, onProgress) => ipc.applyGroupMemberChanges(changes, onProgress),
    planned: (plan) => (plan.cellCount === 0 ? null : { count: plan.requests.length, detail: '' }),
    counts: (report) => {
      const failed = report.cells.filter((c) => c.error !== null).length;
      return {
        done: report.cells.length - failed,
        sent: report.requestsSent,
        failed,
        cancelled: false,
      };
    },
    settle: () => memberships.reload(),
    restage: (report) => {
      for (const cell of report.cells) {
        if (cell.error === null) continue;
        const { userId, groupId, member } = cell.change;
        this.set(userId, groupId, member);
        this.failed.set(cellKey(userId, groupId), cell.error);
      }
    },
    reverse: () => ipc.undoGroupMemberApply(null),
    journalled: async () => (await ipc.listGroupMemberApplies()).length,
    stage: (changes) => this.stage(changes),
  });
  /** Staged cells: `cellKey` → the membership the cell will have. */
  readonly staged: CellMap<boolean, string> = this.pending.values;
  /** Cells whose last apply failed, with the server's message. */
  readonly failed: CellMap<string, string> = this.pending.failed;
  /** People (user ids) picked for a new group. */
  readonly selected = new SvelteSet<number>();
  text = $state('');
  /** The group whose direct members and subgroups are shown. */
  detail = $state<number | null>(null);

  readonly creating = new Action();
  /** What the last create said, for the status line. */
  created = $state<string | null>(null);

  #key: string | null = null;

  /** Follows the account and data epoch: another account's staging is dropped. */
  ensure(key: string | null): void {
    if (key === this.#key) return;
    if (this.#key !== null) this.clear();
    this.#key = key;
    if (key !== null) void this.pending.loadJournal();
  }

  get index(): GroupsIndex | null {
    const grid = memberships.index;
    return grid ? groupsIndexOf(grid) : null;
  }

  get applying(): boolean {
    return this.pending.applying;
  }

  get applyError(): IpcError | null {
    return this.pending.applyError;
  }

  /** The people shown: active ones (and deactivated members), filtered by name or email. */
  visiblePeople(): number[] {
    const index = this.index;
    if (!index) return [];
    const needle = this.text.trim().toLowerCase();
    const rows: number[] = [];
    const people = index.grid.grid.people;
    for (let p = 0; p < people.length; p++) {
      const person = people[p];
      if (!person?.isActive) continue;
      if (
        needle &&
        !person.fullName.toLowerCase().includes(needle) &&
        !person.email.toLowerCase().includes(needle)
      ) {
        continue;
      }
      rows.push(p);
    }
    return rows;
  }

  /** Whether the person will be a direct member after apply. */
  state(userId: number, groupId: number): boolean {
    return (
      this.staged.get(cellKey(userId, groupId)) ?? this.index?.member(userId, groupId) ?? false
    );
  }

  isStaged(userId: number, groupId: number): boolean {
    return this.staged.has(cellKey(userId, groupId));
  }

  /** Make the cell show `member` (staged when it differs from the server), as one step. */
  set(userId: number, groupId: number, member: boolean): boolean {
    let staged = false;
    this.pending.step(() => {
      staged = this.#set(userId, groupId, member);
    });
    return staged;
  }

  #set(userId: number, groupId: number, member: boolean): boolean {
    const index = this.index;
    if (!index || index.denied(userId, groupId) !== null) return false;
    const key = cellKey(userId, groupId);
    const differs = member !== index.member(userId, groupId);
    this.pending.put(key, differs ? member : undefined);
    return differs;
  }

  toggle(userId: number, groupId: number): void {
    this.set(userId, groupId, !this.state(userId, groupId));
  }

  /** Stage changes by ids (undo, import); returns how many cells differ from the server. */
  stage(changes: readonly GroupMemberChange[]): number {
    let staged = 0;
    this.pending.step(() => {
      for (const change of changes) {
        if (this.#set(change.userId, change.groupId, change.member)) staged++;
      }
    });
    return staged;
  }

  discardAll(): void {
    this.pending.discardStep();
  }

  changes(): GroupMemberChange[] {
    const changes: GroupMemberChange[] = [];
    for (const [key, member] of this.staged) {
      const [userId, groupId] = key.split(':').map(Number);
      if (userId !== undefined && groupId !== undefined) {
        changes.push({ userId, groupId, member });
      }
    }
    return changes;
  }

  /** Applies the staged cells; failed ones stay staged with the server's message. */
  async apply(): Promise<void> {
    if (!this.index) return;
    await this.pending.apply();
  }

  /** The staged cells as the pending list shows them, by group. */
  sections(): PendingSection[] {
    const index = this.index;
    if (!index) return [];
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt on every call
    const byGroup = new Map<number, PendingSection>();
    for (const change of this.changes()) {
      const group = index.grid.groupById.get(change.groupId);
      const p = index.grid.personAt.get(change.userId);
      const person = p === undefined ? undefined : index.grid.person(p);
      let section = byGroup.get(change.groupId);
      if (!section) {
        section = {
          key: change.groupId,
          title: group ? groupLabel(group) : String(change.groupId),
          items: [],
        };
        byGroup.set(change.groupId, section);
      }
      const key = cellKey(change.userId, change.groupId);
      section.items.push({
        key,
        add: change.member,
        verb: change.member ? 'Add' : 'Remove',
        label: person?.fullName ?? String(change.userId),
        failure: this.failed.get(key) ?? null,
        discard: () => {
          this.set(change.userId, change.groupId, !change.member);
        },
      });
    }
    return [...byGroup.values()].sort((a, b) => a.title.localeCompare(b.title));
  }

  /** Creates a group of the selected people; the grid reloads to show it. */
  async createGroup(name: string, description: string): Promise<boolean> {
    this.created = null;
    const members = [...this.selected];
    return this.creating.run(async () => {
      await ipc.createUserGroup({ name: name.trim(), description, members });
      await memberships.reload();
      this.selected.clear();
      this.created = `Created ${name.trim()} with ${String(members.length)} ${
        members.length === 1 ? 'person' : 'people'
      }.`;
    });
  }

  clear(): void {
    this.#key = null;
    this.pending.clear();
    this.selected.clear();
    this.text = '';
    this.detail = null;
    this.created = null;
    this.creating.error = null;
  }
}

export const groups = resettable(new GroupsState(), (state) => {
  state.clear();
});
