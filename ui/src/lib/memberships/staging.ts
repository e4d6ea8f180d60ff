/**
 * What a whole-row or whole-column action would stage, what the staged diff does to each
 * channel, and which staged diffs deserve a confirmation: pure functions over the grid and
 * the staged cells, so that menus can say what they do before they do it.
 */
import type { GridIndex } from './grid';

/** Removing more people than this from one channel in one apply asks first. */
export const MANY_REMOVALS = 20;

/** What "subscribe / remove everyone shown" would change. */
export interface FillEffect {
  /** Cells whose state would change (cells the account may not change are left out). */
  cells: number;
  /** Of the people those cells belong to: how many are guests, how many bots. */
  guests: number;
  bots: number;
}

/**
 * The cells among `rows` × `cols` that setting to `value` would change, given the state
 * each cell will have now (`state`: staged, else the server's).
 */
export function fillEffect(
  index: GridIndex,
  rows: readonly number[],
  cols: readonly number[],
  value: boolean,
  state: (p: number, s: number) => boolean,
): FillEffect {
  let cells = 0;
  let guests = 0;
  let bots = 0;
  for (const p of rows) {
    let touched = false;
    for (const s of cols) {
      if (index.denied(p, s) === null && state(p, s) !== value) {
        cells++;
        touched = true;
      }
    }
    if (!touched) continue;
    const person = index.person(p);
    if (person?.isBot) bots++;
    else if (person?.role === 'guest') guests++;
  }
  return { cells, guests, bots };
}

/** "12 cells", "1 cell". */
export function cells(n: number): string {
  return `${n} ${n === 1 ? 'cell' : 'cells'}`;
}

/** "1 person", "3 people". */
export function people(n: number): string {
  return `${n} ${n === 1 ? 'person' : 'people'}`;
}

/** How a fill's reach reads in its menu item: "37 cells, 2 guests and 1 bot included". */
export function describeFill(effect: FillEffect): string {
  const extra: string[] = [];
  if (effect.guests > 0) extra.push(`${effect.guests} ${effect.guests === 1 ? 'guest' : 'guests'}`);
  if (effect.bots > 0) extra.push(`${effect.bots} ${effect.bots === 1 ? 'bot' : 'bots'}`);
  const base = cells(effect.cells);
  return extra.length === 0
    ? `${base}, no guests or bots`
    : `${base}, ${extra.join(' and ')} included`;
}

/** Per channel (index): how many staged cells add, how many remove. */
export interface ChannelDelta {
  added: number;
  removed: number;
}

export function channelDeltas(
  index: GridIndex,
  staged: Iterable<[number, boolean]>,
): Map<number, ChannelDelta> {
  const out = new Map<number, ChannelDelta>();
  for (const [key, subscribe] of staged) {
    const [, s] = index.cellOf(key);
    let delta = out.get(s);
    if (!delta) {
      delta = { added: 0, removed: 0 };
      out.set(s, delta);
    }
    if (subscribe) delta.added++;
    else delta.removed++;
  }
  return out;
}

/** Staged cells (keys) for which `where(p, s)` holds: what a reset would unstage. */
export function stagedWhere(
  index: GridIndex,
  staged: Iterable<[number, boolean]>,
  where: (p: number, s: number) => boolean,
): number[] {
  const keys: number[] = [];
  for (const [key] of staged) {
    const [p, s] = index.cellOf(key);
    if (where(p, s)) keys.push(key);
  }
  return keys;
}

/** A staged change that deserves a second look before it is applied. */
export interface Risk {
  streamId: number;
  text: string;
}

/**
 * Changes to confirm first: leaving a private channel yourself; emptying a channel (a
 * private one can then be joined back only by an administrator); removing more than
 * `MANY_REMOVALS` people from one channel.
 */
export function risksOf(index: GridIndex, staged: Iterable<[number, boolean]>): Risk[] {
  const me = index.personAt.get(index.grid.viewer.userId);
  const entries = [...staged];
  const risks: Risk[] = [];
  for (const [key, subscribe] of entries) {
    const [p, s] = index.cellOf(key);
    const stream = index.stream(s);
    if (stream?.inviteOnly && !subscribe && p === me) {
      risks.push({
        streamId: stream.streamId,
        text: `You leave the private channel #${stream.name}.`,
      });
    }
  }
  for (const [s, { added, removed }] of channelDeltas(index, entries)) {
    const stream = index.stream(s);
    if (!stream || removed === 0) continue;
    if (stream.subscriberCount + added - removed <= 0) {
      risks.push({
        streamId: stream.streamId,
        text: stream.inviteOnly
          ? `#${stream.name} is private and would have no subscribers left.`
          : `#${stream.name} would have no subscribers left.`,
      });
    } else if (removed > MANY_REMOVALS) {
      risks.push({
        streamId: stream.streamId,
        text: `${people(removed)} would be removed from #${stream.name}.`,
      });
    }
  }
  return risks;
}

/**
 * The steps of staging, for Ctrl+Z: each step remembers, per cell it changed, what was
 * staged there before (undefined: nothing). Keyed and valued as the staging model using it
 * (`lib/staging`): grid cells, group members, channel settings.
 */
export class StagingSteps<K = number, V = boolean> {
  readonly #steps: Map<K, V | undefined>[] = [];
  #open: Map<K, V | undefined> | null = null;
  #depth = 0;
  /** The most steps kept. */
  static readonly LIMIT = 100;

  /** Runs `fn` as one step (nested calls join the outer one); true if it changed a cell. */
  run(fn: () => void): boolean {
    if (this.#depth === 0) this.#open = new Map();
    this.#depth++;
    try {
      fn();
    } finally {
      this.#depth--;
    }
    if (this.#depth > 0) return false;
    const step = this.#open;
    this.#open = null;
    if (!step || step.size === 0) return false;
    this.#steps.push(step);
    if (this.#steps.length > StagingSteps.LIMIT) this.#steps.shift();
    return true;
  }

  /** A cell is about to change inside a step: its staged value before. */
  record(key: K, before: V | undefined): void {
    if (this.#open && !this.#open.has(key)) this.#open.set(key, before);
  }

  /** The last step's cells and what they held before it, taken off the list. */
  pop(): Map<K, V | undefined> | undefined {
    return this.#steps.pop();
  }

  get size(): number {
    return this.#steps.length;
  }

  clear(): void {
    this.#steps.length = 0;
  }
}
