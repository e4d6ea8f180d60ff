/**
 * The one staged-changes model of the pages that change many things at once (memberships,
 * group members, channel settings): stage (a key → the value it will have, in steps Ctrl+Z
 * takes back), plan (the requests Apply will send, asked once staging pauses), apply (with
 * its progress, failures staying staged with the server's message) and undo (the reverse
 * of the last apply, staged for review). A page gives the calls and the meaning of its
 * keys (`StagingKind`); the pending bar (`pages/memberships/PendingBar.svelte`) shows any.
 */
import type { ApplyProgress } from '../bindings/ApplyProgress';
import { Action } from '../action.svelte';
import { appliedSummary } from '../applySummary';
import type { IpcError } from '../ipc';
import { CellMap } from '../memberships/cellMap.svelte';
import { StagingSteps } from '../memberships/staging';

/** Staging pauses this long before the plan preview follows it (one plan per burst). */
export const REVIEW_DEBOUNCE_MS = 250;

/** What an apply did, in the numbers the status line says. */
export interface AppliedCounts {
  done: number;
  sent: number;
  failed: number;
  cancelled: boolean;
}

/** The requests a plan promises: how many, and what each does (a tooltip). */
export interface PlannedRequests {
  count: number;
  detail: string;
}

/** The `data-testid`s of a page's pending bar (the groups page keeps its own names). */
export interface PendingIds {
  count: string;
  planned: string;
  apply: string;
  status: string;
  undo: string;
}

export const PENDING_IDS: PendingIds = {
  count: 'pending-count',
  planned: 'planned-requests',
  apply: 'apply-changes',
  status: 'apply-status',
  undo: 'undo-last-apply',
};

/** One kind of change: its calls to the backend and what its answers mean. */
export interface StagingKind<C, Plan, Report> {
  /** The staged values as the backend's changes. */
  changes(): C[];
  plan(changes: C[]): Promise<Plan>;
  apply(changes: C[], onProgress: (progress: ApplyProgress) => void): Promise<Report>;
  /** What the plan promises; null when it sends nothing. */
  planned(plan: Plan): PlannedRequests | null;
  counts(report: Report): AppliedCounts;
  /** After an apply: reload what the page shows (the staged values are still staged). */
  settle(report: Report): Promise<void>;
  /** Then, with nothing staged any more: stage the failures again, with their messages. */
  restage(report: Report): void;
  /** The changes that reverse the last apply (`report` is null after a restart). */
  reverse?(report: Report | null): Promise<C[]> | C[];
  /** How many applies the journal holds (undo is offered after a restart when any). */
  journalled?(): Promise<number>;
  /** Stages changes given by the backend (an undo): how many differ from the server. */
  stage(changes: C[]): number;
  cancel?(): Promise<unknown>;
  /** Changes to confirm before applying (texts); none by default. */
  risks?(): string[];
  /** The apply's journal entry, when the backend keeps one. */
  journalId?(report: Report): number | null;
}

/** A staged change as the pending list shows it. */
export interface PendingItem {
  key: number | string;
  /** Shown green with +, or red with − (an addition or a removal). */
  add: boolean;
  /** What it does, for screen readers: "Subscribe", "Set". */
  verb: string;
  label: string;
  failure: string | null;
  discard: () => void;
}

/** The pending list's headings (a channel, a person, a group) and their changes. */
export interface PendingSection {
  key: number | string;
  title: string;
  items: PendingItem[];
}

/** What the pending bar reads and calls: any page's `Staging`. */
export interface PendingSource {
  readonly size: number;
  readonly planned: PlannedRequests | null;
  readonly applying: boolean;
  readonly progress: ApplyProgress | null;
  readonly status: string | null;
  readonly journalId: number | null;
  readonly undoReady: boolean;
  reviewing: boolean;
  scheduleReview(paused?: () => void): void;
  apply(): Promise<void>;
  cancel(): Promise<void>;
  discardStep(): void;
  undo(): Promise<number>;
  risks(): string[];
}

export class Staging<K extends number | string, V, C, Plan, Report> implements PendingSource {
  /** Staged: key → the value it will have after apply. */
  readonly values = new CellMap<V, K>();
  /** Keys whose last apply failed: key → the server's message. */
  readonly failed = new CellMap<string, K>();
  readonly #steps = new StagingSteps<K, V>();
  /** How many steps Ctrl+Z can take back. */
  undoable = $state(0);
  /** Whether the pending list is open (Review in the pending bar). */
  reviewing = $state(false);

  /** The plan for the staged values as of the last pause; null while nothing is staged. */
  plan = $state.raw<Plan | null>(null);
  #planTimer: ReturnType<typeof setTimeout> | undefined;
  #planSeq = 0;

  readonly #apply = new Action();
  progress = $state<ApplyProgress | null>(null);
  /** What the last apply did; null once something new is staged. */
  report = $state.raw<Report | null>(null);
  /** Whether the last apply (in this session) can be undone. */
  undoReady = $state(false);
  /** The last apply's report, kept for undo after its status line is gone. */
  #applied: Report | null = null;

  kind: StagingKind<C, Plan, Report>;

  constructor(kind: StagingKind<C, Plan, Report>) {
    this.kind = kind;
  }

  get size(): number {
    return this.values.size;
  }

  get applying(): boolean {
    return this.#apply.busy;
  }

  get applyError(): IpcError | null {
    return this.#apply.error;
  }

  set applyError(error: IpcError | null) {
    this.#apply.error = error;
  }

  /** Stages `value` at `key` (undefined: unstages), as part of the open step. */
  put(key: K, value: V | undefined): void {
    const before = this.values.get(key);
    if (before === value) return;
    this.#steps.record(key, before);
    if (value === undefined) {
      this.values.delete(key);
      this.failed.delete(key);
    } else {
      this.values.set(key, value);
    }
  }

  /**
   * Runs `fn` as one staging step: Ctrl+Z takes it back whole. A step that changed
   * something also clears the last apply's status, which no longer describes the page.
   */
  step(fn: () => void): boolean {
    if (!this.#steps.run(fn)) return false;
    this.undoable = this.#steps.size;
    if (!this.applying) {
      this.report = null;
      this.#apply.error = null;
    }
    return true;
  }

  /** Takes back the last staging step; false when there is none. */
  undoStep(): boolean {
    const step = this.#steps.pop();
    this.undoable = this.#steps.size;
    if (!step) return false;
    for (const [key, before] of step) {
      if (before === undefined) {
        this.values.delete(key);
        this.failed.delete(key);
      } else {
        this.values.set(key, before);
      }
    }
    return true;
  }

  /** Forget the steps (their keys may no longer mean the same cells). */
  forgetSteps(): void {
    this.#steps.clear();
    this.undoable = 0;
  }

  /** Unstages everything (inside an open step, Ctrl+Z brings it back). */
  discardAll(): void {
    for (const [key, value] of this.values) this.#steps.record(key, value);
    this.values.clear();
    this.failed.clear();
  }

  /** Discard all, as a step Ctrl+Z can take back. */
  discardStep(): void {
    this.step(() => {
      this.discardAll();
    });
  }

  /** `kind.stage` as one step the user took (an import, an undo staged for review). */
  stageStep(changes: C[]): number {
    let staged = 0;
    this.step(() => {
      staged = this.kind.stage(changes);
    });
    return staged;
  }

  /**
   * Once staging pauses, ask the planner which calls Apply would make, so that the page
   * promises the count before anything is sent; `paused` runs then too (a list that
   * follows the staged values). Answers to stale values are dropped. Reads `size`, so an
   * effect that calls this re-runs on every staging change.
   */
  scheduleReview(paused?: () => void): void {
    clearTimeout(this.#planTimer);
    const seq = ++this.#planSeq;
    if (this.values.size === 0) {
      this.plan = null;
      paused?.();
      return;
    }
    this.#planTimer = setTimeout(() => {
      paused?.();
      this.kind.plan(this.kind.changes()).then(
        (plan) => {
          if (seq === this.#planSeq) this.plan = plan;
        },
        () => {
          // The preview is a courtesy: Apply plans again and reports its own errors.
          if (seq === this.#planSeq) this.plan = null;
        },
      );
    }, REVIEW_DEBOUNCE_MS);
  }

  /** The requests the current plan promises, once known. */
  get planned(): PlannedRequests | null {
    const plan = this.plan;
    if (plan === null || this.values.size === 0) return null;
    return this.kind.planned(plan);
  }

  /** Applies the staged values; the kind's `settle` reloads and restages the failures. */
  async apply(): Promise<void> {
    if (this.applying || this.values.size === 0) return;
    this.report = null;
    this.progress = null;
    await this.#apply.run(async () => {
      const report = await this.kind.apply(this.kind.changes(), (progress) => {
        this.progress = progress;
      });
      this.report = report;
      this.#applied = report;
      this.undoReady = this.kind.counts(report).done > 0;
      await this.kind.settle(report);
      this.values.clear();
      this.failed.clear();
      this.forgetSteps();
      this.kind.restage(report);
    });
  }

  async cancel(): Promise<void> {
    await this.kind.cancel?.();
  }

  /** Stages the reverse of the last apply for review: how many changes were staged. */
  async undo(): Promise<number> {
    if (!this.kind.reverse) return 0;
    const changes = await this.kind.reverse(this.#applied);
    this.#applied = null;
    this.undoReady = false;
    const staged = this.stageStep(changes);
    this.report = null;
    return staged;
  }

  /** Offers undo when the journal holds an apply (one made before a restart too). */
  async loadJournal(): Promise<void> {
    if (!this.kind.journalled) return;
    try {
      const count = await this.kind.journalled();
      if (!this.applying) this.undoReady = count > 0;
    } catch {
      // Undo is then offered after the next apply only.
    }
  }

  /** Changes to confirm before applying. */
  risks(): string[] {
    return this.kind.risks?.() ?? [];
  }

  /** The status line: the last apply's outcome or failure. */
  get status(): string | null {
    if (this.#apply.error) return `Apply failed: ${this.#apply.error.message}`;
    const report = this.report;
    if (report === null) return null;
    const counts = this.kind.counts(report);
    const text = appliedSummary(counts.done, counts.sent, counts.failed);
    return counts.cancelled ? `Cancelled. ${text}` : text;
  }

  get journalId(): number | null {
    const report = this.report;
    return report === null ? null : (this.kind.journalId?.(report) ?? null);
  }

  /** Back to nothing staged, planned or applied. */
  clear(): void {
    clearTimeout(this.#planTimer);
    this.#planSeq++;
    this.values.clear();
    this.failed.clear();
    this.forgetSteps();
    this.plan = null;
    this.progress = null;
    this.report = null;
    this.undoReady = false;
    this.#applied = null;
    this.reviewing = false;
    this.#apply.error = null;
  }
}
