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

/** A staged subgroup's key: the group and its (wanted or unwanted) direct subgroup. */
export function subgroupKey(groupId: number, subgroupId: number): string {
  return `sub:${String(groupId)}:${String(subgroupId)}`;
}

/** The change a staged key stands for. */
function changeOf(key: string, member: boolean): GroupMemberChange | null {
  const parts = key.split(':');
  if (parts[0] === 'sub') {
    const [groupId, subgroupId] = parts.slice(1).map(Number);
    if (groupId === undefined || subgroupId === undefined) return null;
    return { userId: 0, groupId, member, subgroupId };
  }
  const [userId, groupId] = parts.map(Number);
  if (userId === undefined || groupId === undefined) return null;
  return { userId, groupId, member };
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

  /** Whether the server has `subgroupId` as a direct subgroup of `groupId`. */
  subgroup(groupId: number, subgroupId: number): boolean {
    return this.grid.groupById.get(groupId)?.directSubgroupIds.includes(subgroupId) ?? false;
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
        const { userId, groupId, member, subgroupId } = cell.change;
        if (subgroupId === undefined) {
          this.set(userId, groupId, member);
          this.failed.set(cellKey(userId, groupId), cell.error);
        } else {
          this.setSubgroup(groupId, subgroupId, member);
          this.failed.set(subgroupKey(groupId, subgroupId), cell.error);
        }
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
  /** Staged subgroup changes by group (subgroup → wanted), so that the subgroup views
   *  the grid asks per cell read a few entries, not every staged cell. */
  readonly #subgroupEdits = $derived.by(() => {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by the derivation
    const edits = new Map<number, Map<number, boolean>>();
    for (const [key, member] of this.staged) {
      const change = key.startsWith('sub:') ? changeOf(key, member) : null;
      if (change?.subgroupId === undefined) continue;
      let group = edits.get(change.groupId);
      if (!group) {
        // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by the derivation
        group = new Map();
        edits.set(change.groupId, group);
      }
      group.set(change.subgroupId, member);
    }
    return edits;
  });
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

  /** Flips a person's direct membership; one who is in only through a subgroup is
   *  changed in that subgroup, not here (as in Zulip). */
  toggle(userId: number, groupId: number): void {
    const member = this.state(userId, groupId);
    if (!member && this.via(userId, groupId) !== null) return;
    this.set(userId, groupId, !member);
  }

  /** The group's direct subgroups after apply, in the server's order then staged ones. */
  subgroups(groupId: number): number[] {
    const group = this.index?.grid.groupById.get(groupId);
    if (!group) return [];
    const edits = this.#subgroupEdits.get(groupId);
    if (!edits) return group.directSubgroupIds;
    const list = group.directSubgroupIds.filter((id) => edits.get(id) !== false);
    for (const [id, member] of edits) {
      if (member && !list.includes(id)) list.push(id);
    }
    return list;
  }

  /** Whether `subgroupId` will be a direct subgroup of `groupId` after apply. */
  hasSubgroup(groupId: number, subgroupId: number): boolean {
    return (
      this.staged.get(subgroupKey(groupId, subgroupId)) ??
      this.index?.subgroup(groupId, subgroupId) ??
      false
    );
  }

  isSubgroupStaged(groupId: number, subgroupId: number): boolean {
    return this.staged.has(subgroupKey(groupId, subgroupId));
  }

  /** Whether `inner` is `outer` or inside it at any depth, after apply. */
  contains(outer: number, inner: number): boolean {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local to the call
    const seen = new Set<number>();
    const stack = [outer];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (id === inner) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...this.subgroups(id));
    }
    return false;
  }

  /**
   * The group through which `userId` is in `groupId` without being a direct member
   * (after apply): the nearest subgroup they are a direct member of, where they are
   * edited. `null`: a direct member, or not in it at all.
   */
  via(userId: number, groupId: number): number | null {
    if (this.state(userId, groupId)) return null;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local to the call
    const seen = new Set<number>([groupId]);
    let level = this.subgroups(groupId);
    while (level.length > 0) {
      const next: number[] = [];
      for (const id of level) {
        if (seen.has(id)) continue;
        seen.add(id);
        if (this.state(userId, id)) return id;
        next.push(...this.subgroups(id));
      }
      level = next;
    }
    return null;
  }

  /** Why `subgroupId` may not be added to (`member`) or removed from `groupId`'s
   *  subgroups now; `null`: it may. A group may not contain itself (Zulip refuses it). */
  subgroupDenied(groupId: number, subgroupId: number, member: boolean): string | null {
    const group = this.index?.grid.groupById.get(groupId);
    const sub = this.index?.grid.groupById.get(subgroupId);
    if (!group || !sub) return 'Unknown group';
    const rule = member ? group.addDenied : group.removeDenied;
    if (rule !== null) return rule;
    if (member && this.contains(subgroupId, groupId)) {
      return subgroupId === groupId
        ? 'A group cannot be its own subgroup.'
        : `${groupLabel(sub)} already contains ${groupLabel(group)}: adding it would make a cycle.`;
    }
    return null;
  }

  /** Stages `subgroupId` in or out of `groupId`'s direct subgroups, as one step; false
   *  when refused (`subgroupDenied`) or already so on the server. */
  setSubgroup(groupId: number, subgroupId: number, member: boolean): boolean {
    let staged = false;
    this.pending.step(() => {
      staged = this.#setSubgroup(groupId, subgroupId, member);
    });
    return staged;
  }

  #setSubgroup(groupId: number, subgroupId: number, member: boolean): boolean {
    const index = this.index;
    if (!index) return false;
    const differs = member !== index.subgroup(groupId, subgroupId);
    if (differs && this.subgroupDenied(groupId, subgroupId, member) !== null) return false;
    this.pending.put(subgroupKey(groupId, subgroupId), differs ? member : undefined);
    return differs;
  }

  /** Stage changes by ids (undo, import); returns how many cells differ from the server. */
  stage(changes: readonly GroupMemberChange[]): number {
    let staged = 0;
    this.pending.step(() => {
      for (const change of changes) {
        const differs =
          change.subgroupId === undefined
            ? this.#set(change.userId, change.groupId, change.member)
            : this.#setSubgroup(change.groupId, change.subgroupId, change.member);
        if (differs) staged++;
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
      const change = changeOf(key, member);
      if (change) changes.push(change);
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
      let section = byGroup.get(change.groupId);
      if (!section) {
        section = {
          key: change.groupId,
          title: group ? groupLabel(group) : String(change.groupId),
          items: [],
        };
        byGroup.set(change.groupId, section);
      }
      const { subgroupId } = change;
      if (subgroupId !== undefined) {
        const key = subgroupKey(change.groupId, subgroupId);
        const sub = index.grid.groupById.get(subgroupId);
        section.items.push({
          key,
          add: change.member,
          verb: change.member ? 'Add subgroup' : 'Remove subgroup',
          label: `${sub ? groupLabel(sub) : String(subgroupId)} (subgroup)`,
          failure: this.failed.get(key) ?? null,
          discard: () => {
            this.setSubgroup(change.groupId, subgroupId, !change.member);
          },
        });
        continue;
      }
      const p = index.grid.personAt.get(change.userId);
      const person = p === undefined ? undefined : index.grid.person(p);
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
