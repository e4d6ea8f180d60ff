import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { ApplyProgress } from '../bindings/ApplyProgress';
import type { GridGroup } from '../bindings/GridGroup';
import type { GroupApplyReport } from '../bindings/GroupApplyReport';
import type { GroupMemberChange } from '../bindings/GroupMemberChange';
import type { GroupPlanPreview } from '../bindings/GroupPlanPreview';
import { Action } from '../action.svelte';
import { ipc, type IpcError } from '../ipc';
import type { GridIndex } from '../memberships/grid';
import { sortedGroups } from '../memberships/groups';
import { memberships } from './memberships.svelte';
import { resettable } from './registry';

/** Staging pauses this long before the plan preview follows it (one plan per burst). */
const PLAN_DEBOUNCE_MS = 250;

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
 * The groups page's state: staged cells (user × group → wanted membership), the plan
 * Apply would send, the apply with its progress, the reverse of the last apply (undo),
 * the people selected for a new group. The grid itself is the memberships store's.
 */
class GroupsState {
  readonly staged = new SvelteMap<string, GroupMemberChange>();
  /** Cells whose last apply failed, with the server's message. */
  readonly failed = new SvelteMap<string, string>();
  /** People (user ids) picked for a new group. */
  readonly selected = new SvelteSet<number>();
  text = $state('');
  /** The group whose direct members and subgroups are shown. */
  detail = $state<number | null>(null);

  plan = $state.raw<GroupPlanPreview | null>(null);
  #planTimer: ReturnType<typeof setTimeout> | undefined;
  #planSeq = 0;

  readonly #apply = new Action();
  readonly creating = new Action();
  progress = $state<ApplyProgress | null>(null);
  report = $state.raw<GroupApplyReport | null>(null);
  /** The reverse of the last apply's successful cells: what undo stages. */
  lastReverse = $state.raw<GroupMemberChange[]>([]);
  /** What the last create said, for the status line. */
  created = $state<string | null>(null);

  #key: string | null = null;

  /** Follows the account and data epoch: another account's staging is dropped. */
  ensure(key: string | null): void {
    if (key === this.#key) return;
    if (this.#key !== null) this.clear();
    this.#key = key;
  }

  get index(): GroupsIndex | null {
    const grid = memberships.index;
    return grid ? groupsIndexOf(grid) : null;
  }

  get applying(): boolean {
    return this.#apply.busy;
  }

  get applyError(): IpcError | null {
    return this.#apply.error;
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
      this.staged.get(cellKey(userId, groupId))?.member ??
      this.index?.member(userId, groupId) ??
      false
    );
  }

  isStaged(userId: number, groupId: number): boolean {
    return this.staged.has(cellKey(userId, groupId));
  }

  /** Make the cell show `member`: staged when it differs from the server. */
  set(userId: number, groupId: number, member: boolean): boolean {
    const index = this.index;
    if (!index || index.denied(userId, groupId) !== null) return false;
    const key = cellKey(userId, groupId);
    if (member === index.member(userId, groupId)) {
      this.staged.delete(key);
      this.failed.delete(key);
      return false;
    }
    this.staged.set(key, { userId, groupId, member });
    return true;
  }

  toggle(userId: number, groupId: number): void {
    this.set(userId, groupId, !this.state(userId, groupId));
  }

  /** Stage changes by ids (undo); returns how many cells differ from the server. */
  stage(changes: readonly GroupMemberChange[]): number {
    let staged = 0;
    for (const change of changes) {
      if (this.set(change.userId, change.groupId, change.member)) staged++;
    }
    return staged;
  }

  discardAll(): void {
    this.staged.clear();
    this.failed.clear();
  }

  changes(): GroupMemberChange[] {
    return [...this.staged.values()];
  }

  /**
   * Once staging pauses, ask the planner which calls Apply would make (one per group), so
   * the page promises the count before anything is sent; stale answers are dropped.
   */
  scheduleReview(): void {
    clearTimeout(this.#planTimer);
    const seq = ++this.#planSeq;
    if (this.staged.size === 0) {
      this.plan = null;
      return;
    }
    const changes = this.changes();
    this.#planTimer = setTimeout(() => {
      ipc.planGroupMemberChanges(changes).then(
        (plan) => {
          if (seq === this.#planSeq) this.plan = plan;
        },
        () => {
          // A courtesy preview: Apply plans again and reports its own errors.
          if (seq === this.#planSeq) this.plan = null;
        },
      );
    }, PLAN_DEBOUNCE_MS);
  }

  /** Applies the staged cells; failed ones stay staged with the server's message. */
  async apply(): Promise<void> {
    if (!this.index || this.applying || this.staged.size === 0) return;
    this.report = null;
    this.progress = null;
    this.created = null;
    await this.#apply.run(async () => {
      const report = await ipc.applyGroupMemberChanges(this.changes(), (progress) => {
        this.progress = progress;
      });
      this.report = report;
      this.lastReverse = report.cells
        .filter((cell) => cell.error === null)
        .map(({ change }) => ({ ...change, member: !change.member }));
      await memberships.reload();
      this.discardAll();
      for (const cell of report.cells) {
        if (cell.error === null) continue;
        const { userId, groupId, member } = cell.change;
        this.set(userId, groupId, member);
        this.failed.set(cellKey(userId, groupId), cell.error);
      }
    });
  }

  /** Stage the reverse of the last apply for review; applying it restores the server. */
  undo(): number {
    const reverse = this.lastReverse;
    this.lastReverse = [];
    this.report = null;
    return this.stage(reverse);
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
    clearTimeout(this.#planTimer);
    this.#planSeq++;
    this.discardAll();
    this.selected.clear();
    this.text = '';
    this.detail = null;
    this.plan = null;
    this.progress = null;
    this.report = null;
    this.lastReverse = [];
    this.created = null;
    this.#apply.error = null;
    this.creating.error = null;
  }
}

export const groups = resettable(new GroupsState(), (state) => {
  state.clear();
});
