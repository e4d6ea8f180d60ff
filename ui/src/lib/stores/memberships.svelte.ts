import type { ApplyOutcome } from '../bindings/ApplyOutcome';
import type { ApplyProgress } from '../bindings/ApplyProgress';
import type { ApplySummary } from '../bindings/ApplySummary';
import type { MembershipChange } from '../bindings/MembershipChange';
import type { PlanPreview } from '../bindings/PlanPreview';
import type { SyncKeep } from '../bindings/SyncKeep';
import { ipc, type IpcError } from '../ipc';
import {
  GridIndex,
  visiblePeople,
  visibleStreams,
  type PeopleFilter,
  type PeopleSort,
  type StreamFilter,
  type StreamSort,
} from '../memberships/grid';
import { CellMap } from '../memberships/cellMap.svelte';
import {
  channelDeltas,
  risksOf,
  stagedWhere,
  type ChannelDelta,
  type Risk,
} from '../memberships/staging';
import { Staging } from '../staging/staging.svelte';
import { resettable } from './registry';
import { Resource } from './resource.svelte';

/** The grid, indexed. User Timing marks: `weir-bench grid` reports them against the page's
 *  opening. */
async function loadGrid(): Promise<GridIndex> {
  const answer = await ipc.loadMemberships();
  performance.mark('grid received');
  const index = GridIndex.decode(answer);
  performance.mark('grid indexed');
  return index;
}

export type { Risk };

/**
 * The memberships page's state: the grid, the staged diff (one map, cell → wanted state),
 * filters, the apply in progress and the history. Cells read the maps per key (`CellMap`),
 * so staging one cell re-renders that cell only.
 */
class MembershipsState {
  /** The grid per account and data epoch; staged changes follow each answer (`#loaded`). */
  readonly #grid = new Resource(loadGrid, (_, previous) => {
    this.#loaded(previous);
  });

  get index(): GridIndex | null {
    return this.#grid.data;
  }

  get error(): IpcError | null {
    return this.#grid.error;
  }

  get loading(): boolean {
    return this.#grid.loading;
  }

  get applying(): boolean {
    return this.pending.applying;
  }

  get applyError(): IpcError | null {
    return this.pending.applyError;
  }

  /**
   * The staged cells (cell key → the state the cell will have), their steps, plan and
   * apply: the staging model every page shares.
   */
  readonly pending: Staging<number, boolean, MembershipChange, PlanPreview, ApplyOutcome> =
    new Staging({
      changes: () => this.changes(),
      plan: (changes) => ipc.planMembershipChanges(changes),
      apply: (changes, onProgress) => ipc.applyMembershipChanges(changes, onProgress),
      planned: (plan) =>
        plan.cellCount === 0
          ? null
          : {
              count: plan.requests.length,
              detail: plan.requests
                .map(
                  (call) =>
                    `${call.subscribe ? 'subscribe' : 'unsubscribe'} ${call.people} ${call.people === 1 ? 'person' : 'people'} × ${call.streams} channel${call.streams === 1 ? '' : 's'}`,
                )
                .join('; '),
            },
      counts: (outcome) => {
        const failed = outcome.results.filter((r) => !r.ok).length;
        return {
          done: outcome.results.length - failed,
          sent: outcome.requestsSent,
          failed,
          cancelled: outcome.cancelled,
        };
      },
      settle: () => this.reload(),
      restage: (outcome) => {
        this.#restage(outcome);
      },
      stage: (changes) => this.stage(changes),
      cancel: () => ipc.cancelMembershipApply(),
      risks: () => this.risks().map((risk) => risk.text),
      journalId: (outcome) => outcome.journalId,
    });
  /** Staged cells: cell key → the state the cell will have. */
  readonly staged: CellMap<boolean> = this.pending.values;
  /** Cells whose last apply failed: cell key → the server's message. */
  readonly failed: CellMap<string> = this.pending.failed;

  /** How many steps Ctrl+Z can take back (the steps themselves are not reactive). */
  get undoable(): number {
    return this.pending.undoable;
  }

  people = $state<PeopleFilter>({
    text: '',
    role: '',
    botsOnly: false,
    showDeactivated: false,
    group: '',
  });
  streams = $state<StreamFilter>({ text: '', access: 'all' });
  peopleSort = $state<PeopleSort>('name');
  streamSort = $state<StreamSort>('name');

  visiblePeople: number[] = $derived(
    this.index ? visiblePeople(this.index, this.people, this.peopleSort) : [],
  );
  visibleStreams: number[] = $derived(
    this.index ? visibleStreams(this.index, this.streams, this.streamSort) : [],
  );

  /** The channel (stream id) being synced with a group: its dialog is open. */
  syncing = $state<number | null>(null);
  /** Whether every (non-system) group shows as a row above the people. */
  everyGroup = $state(false);
  /** Whether the pending list is open beside the grid (Review in the pending bar). */
  get reviewing(): boolean {
    return this.pending.reviewing;
  }

  set reviewing(open: boolean) {
    this.pending.reviewing = open;
  }

  /** Per channel (index): what the staged diff adds and removes (iterating tracks it). */
  readonly deltas: Map<number, ChannelDelta> = $derived.by(() => {
    const index = this.index;
    return index ? channelDeltas(index, this.staged) : new Map<number, ChannelDelta>();
  });

  /** A channel's subscriber count after apply, when the staged diff changes it. */
  after(s: number): number | undefined {
    const delta = this.deltas.get(s);
    const stream = this.index?.stream(s);
    if (!delta || !stream || delta.added === delta.removed) return undefined;
    return stream.subscriberCount + delta.added - delta.removed;
  }

  /** The person whose channels the copy dialog copies (opened from a row menu). */
  copyFrom = $state<number | null>(null);

  /** The staged diff as of the last pause in staging (`scheduleReview`): the pending list. */
  listed = $state.raw<[key: number, subscribe: boolean][]>([]);
  /** The calls Apply would make for the staged diff; null while none is staged. */
  get plan(): PlanPreview | null {
    return this.pending.plan;
  }

  /** The apply in progress, and what the last one did. */
  get progress(): ApplyProgress | null {
    return this.pending.progress;
  }

  get outcome(): ApplyOutcome | null {
    return this.pending.report;
  }

  history = $state<ApplySummary[]>([]);

  /** Load the grid for `key` (account and data epoch) unless loaded for it already;
   *  settles when that load does. */
  ensure(key: string | null): Promise<void> {
    if (key === null) {
      this.clear();
      return Promise.resolve();
    }
    if (key === this.#grid.key) return this.#grid.ensure(key);
    if (this.#grid.key !== null) {
      // Another account, or its data changed: the old grid is neither shown (the resource
      // drops it) nor staged on while the new one loads, and the last apply's outcome was
      // about the old one.
      this.discardAll();
      this.pending.report = null;
      this.pending.applyError = null;
      this.pending.progress = null;
    }
    return this.#grid.ensure(key);
  }

  reload(): Promise<void> {
    return this.#grid.reload();
  }

  /** A grid arrived: staged changes survive a reload (by ids: indices may move). */
  #loaded(previous: GridIndex | null): void {
    const carried = changesOn(previous, this.staged);
    // Steps name cells by index, which a new grid may move.
    this.pending.forgetSteps();
    this.staged.clear();
    this.stage(carried);
    void this.loadHistory();
  }

  clear(): void {
    this.#grid.clear();
    this.pending.clear();
    this.history = [];
    this.people = { text: '', role: '', botsOnly: false, showDeactivated: false, group: '' };
    this.streams = { text: '', access: 'all' };
    this.peopleSort = 'name';
    this.streamSort = 'name';
    this.copyFrom = null;
    this.syncing = null;
    this.everyGroup = false;
  }

  /** The state the cell will have after apply. */
  state(p: number, s: number): boolean {
    const index = this.index;
    if (!index) return false;
    return this.staged.get(index.key(p, s)) ?? index.subscribed(p, s);
  }

  isStaged(p: number, s: number): boolean {
    return this.index !== null && this.staged.has(this.index.key(p, s));
  }

  /** Flip one cell: stage the other state, or unstage a staged cell. */
  toggle(p: number, s: number): void {
    this.set(p, s, !this.state(p, s));
  }

  /** Make the cell show `value`: staged when it differs from the server. */
  set(p: number, s: number, value: boolean): void {
    this.step(() => {
      this.#set(p, s, value);
    });
  }

  /** `set`, inside whatever step is open (none: not undoable, as a reload's restaging). */
  #set(p: number, s: number, value: boolean): void {
    const index = this.index;
    if (!index || index.denied(p, s) !== null) return;
    const key = index.key(p, s);
    this.#put(key, value === index.subscribed(p, s) ? undefined : value);
  }

  /** Stages (or, with undefined, unstages) one cell, remembered by the open step. */
  #put(key: number, value: boolean | undefined): void {
    this.pending.put(key, value);
  }

  /**
   * Runs `fn` as one staging step: Ctrl+Z takes it back whole. A step that changed
   * something also clears the last apply's status, which no longer describes the grid.
   */
  step(fn: () => void): void {
    this.pending.step(fn);
  }

  /** Takes back the last staging step; false when there is none. */
  undoStep(): boolean {
    return this.pending.undoStep();
  }

  /** Set every cell of visible rows `rows` × visible columns `columns` to `value`. */
  setMany(rows: readonly number[], columns: readonly number[], value: boolean): void {
    this.step(() => {
      for (const p of rows) for (const s of columns) this.#set(p, s, value);
    });
  }

  /** Unstages every staged cell where `where(p, s)` holds: back to the server's state. */
  reset(where: (p: number, s: number) => boolean): number {
    const index = this.index;
    if (!index) return 0;
    const keys = stagedWhere(index, this.staged, where);
    this.step(() => {
      for (const key of keys) this.#put(key, undefined);
    });
    return keys.length;
  }

  /** Whole row or column: check all when any allowed cell is unchecked, else uncheck. */
  fill(rows: number[], columns: number[]): void {
    const index = this.index;
    if (!index) return;
    let anyOff = false;
    for (const p of rows) {
      for (const s of columns) {
        if (index.denied(p, s) === null && !this.state(p, s)) anyOff = true;
      }
    }
    this.setMany(rows, columns, anyOff);
  }

  /**
   * A group row's cell: whether all, some or none of the group's active members will be
   * subscribed after apply (`aria-checked` true / mixed / false).
   */
  groupState(groupId: number, s: number): 'true' | 'false' | 'mixed' {
    const index = this.index;
    const members = index?.groupMembers(groupId);
    if (!index || !members) return 'false';
    let active = 0;
    let on = 0;
    for (const p of members) {
      if (!index.person(p)?.isActive) continue;
      active++;
      if (this.state(p, s)) on++;
    }
    return on === 0 ? 'false' : on === active ? 'true' : 'mixed';
  }

  /** A group row's cell toggled: all members subscribed, or (when all are) none. Cells
   *  the account may not change are left as they are. */
  toggleGroup(groupId: number, s: number): void {
    const members = this.index?.groupMembers(groupId);
    if (!members) return;
    const value = this.groupState(groupId, s) !== 'true';
    this.setMany([...members], [s], value);
  }

  /**
   * Stage the changes that make the channel's subscribers the group's members (planned by
   * the core against the server's state); what was staged on that channel before is
   * replaced, so the pending list shows exactly the sync. Returns how many were staged.
   */
  async syncChannel(streamId: number, groupId: number, keep: SyncKeep): Promise<number> {
    const changes = await ipc.planGroupSync({ streamId, groupId, keep });
    const index = this.index;
    const s = index?.streamAt.get(streamId);
    if (!index || s === undefined) return 0;
    let staged = 0;
    this.step(() => {
      for (let p = 0; p < index.peopleCount; p++) this.#put(index.key(p, s), undefined);
      staged = this.stage(changes);
    });
    this.relist();
    return staged;
  }

  /** Stage `from`'s channels (every public channel when null) for the people `to`. */
  async copyMemberships(from: number | null, to: number[]): Promise<number> {
    const changes = await ipc.copyMemberships({ from, to });
    const staged = this.stageStep(changes);
    this.relist();
    return staged;
  }

  /** Unstage one cell; the pending list drops it at once (it is where this is done). */
  discard(p: number, s: number): void {
    const index = this.index;
    if (!index) return;
    this.step(() => {
      this.#put(index.key(p, s), undefined);
    });
    this.relist();
  }

  /** The pending list shows the staged diff as it is now. */
  relist(): void {
    this.listed = [...this.staged];
  }

  discardAll(): void {
    this.pending.discardAll();
  }

  /** Discard all, as a step Ctrl+Z can take back. */
  discardStep(): void {
    this.pending.discardStep();
  }

  /** `stage` as one step the user took (an import, an undo staged for review). */
  stageStep(changes: MembershipChange[]): number {
    return this.pending.stageStep(changes);
  }

  /** The staged diff, by ids. */
  changes(): MembershipChange[] {
    return changesOn(this.index, this.staged);
  }

  /** Stage changes given by ids (undo, CSV import); unknown or denied cells are skipped. */
  stage(changes: MembershipChange[]): number {
    const index = this.index;
    if (!index) return 0;
    let staged = 0;
    for (const change of changes) {
      const p = index.personAt.get(change.userId);
      const s = index.streamAt.get(change.streamId);
      if (p === undefined || s === undefined || index.denied(p, s) !== null) continue;
      if (index.subscribed(p, s) !== change.subscribe) staged++;
      this.#set(p, s, change.subscribe);
    }
    return staged;
  }

  /** Changes to confirm before applying (`risksOf`). */
  risks(): Risk[] {
    return this.index ? risksOf(this.index, this.staged) : [];
  }

  /** Applies the staged diff; failed cells stay staged with the server's message. */
  async apply(): Promise<void> {
    if (!this.index) return;
    await this.pending.apply();
  }

  /** After an apply: the reloaded grid's failed cells staged again, with the message. */
  #restage(outcome: ApplyOutcome): void {
    // The reloaded grid; none if the account changed meanwhile.
    const current = this.#grid.data;
    if (!current) return;
    const failures = outcome.results.filter((r) => !r.ok);
    this.stage(failures);
    for (const failure of failures) {
      const p = current.personAt.get(failure.userId);
      const s = current.streamAt.get(failure.streamId);
      if (p !== undefined && s !== undefined && failure.message !== null) {
        this.failed.set(current.key(p, s), failure.message);
      }
    }
  }

  /**
   * Once staging pauses: the pending list follows the diff, and the planner is asked which
   * calls Apply would make, so that the panel can say so before anything is sent. An
   * emptied diff empties both at once; answers to stale diffs are dropped. Reads `size`, so
   * an effect that calls this re-runs on every staging change.
   */
  scheduleReview(): void {
    this.pending.scheduleReview(() => {
      this.relist();
    });
  }

  async cancel(): Promise<void> {
    await this.pending.cancel();
  }

  async loadHistory(): Promise<void> {
    try {
      this.history = await ipc.listMembershipApplies();
    } catch {
      this.history = [];
    }
  }

  /** Stage the reverse of an apply (the latest when `id` is null) for review. */
  async undo(id: number | null): Promise<number> {
    const reverse = await ipc.undoMembershipApply(id);
    return this.stageStep(reverse);
  }
}

/** Staged cells of `index`, by ids. */
function changesOn(index: GridIndex | null, staged: CellMap<boolean>): MembershipChange[] {
  if (!index) return [];
  const changes: MembershipChange[] = [];
  for (const [key, subscribe] of staged) {
    const [p, s] = index.cellOf(key);
    const person = index.person(p);
    const stream = index.stream(s);
    if (person && stream) {
      changes.push({ userId: person.userId, streamId: stream.streamId, subscribe });
    }
  }
  return changes;
}

export const memberships = resettable(new MembershipsState(), (state) => {
  state.clear();
});
