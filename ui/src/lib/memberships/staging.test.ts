import { describe, expect, it } from 'vitest';
import { largeGrid } from '../../test/memberships';
import { GridIndex } from './grid';
import { describeFill, fillEffect, MANY_REMOVALS, people, risksOf, StagingSteps } from './staging';

/** Lumen Labs with `extra` more members in #general (index 0). */
function index(extra: number): GridIndex {
  return GridIndex.of(largeGrid(extra));
}

/** Staged removals from #general of the first `n` extra people. */
function removals(ix: GridIndex, n: number): [number, boolean][] {
  const s = ix.streamAt.get(1) ?? -1;
  return Array.from({ length: n }, (_, i) => [ix.key(5 + i, s), false]);
}

describe('confirmations before applying', () => {
  it(`asks when more than ${MANY_REMOVALS} people leave one channel, naming it`, () => {
    const ix = index(30);
    expect(risksOf(ix, removals(ix, MANY_REMOVALS))).toEqual([]);
    expect(risksOf(ix, removals(ix, MANY_REMOVALS + 1))).toEqual([
      { streamId: 1, text: '21 people would be removed from #general.' },
    ]);
  });

  it('asks when a public channel would be emptied', () => {
    const ix = index(0);
    const s = ix.streamAt.get(1) ?? -1;
    // #general's subscribers: Ada, Alan, Claude and the bot (indices 0, 1, 2, 4).
    const all: [number, boolean][] = [0, 1, 2, 4].map((p) => [ix.key(p, s), false]);
    expect(risksOf(ix, all.slice(0, 3))).toEqual([]);
    expect(risksOf(ix, all)).toEqual([
      { streamId: 1, text: '#general would have no subscribers left.' },
    ]);
  });
});

describe('what a fill would stage', () => {
  it('counts the cells that change, and the guests and bots among them', () => {
    const ix = index(0);
    const random = ix.streamAt.get(5) ?? -1;
    const effect = fillEffect(ix, [0, 1, 2, 4], [random], true, (p, s) => ix.subscribed(p, s));
    expect(effect).toEqual({ cells: 4, guests: 0, bots: 1 });
    expect(describeFill(effect)).toBe('4 cells, 1 bot included');
    expect(describeFill({ cells: 1, guests: 2, bots: 0 })).toBe('1 cell, 2 guests included');
    expect(describeFill({ cells: 0, guests: 0, bots: 0 })).toBe('0 cells, no guests or bots');
    expect([people(1), people(2)]).toEqual(['1 person', '2 people']);
  });
});

describe('staging steps', () => {
  it('remember what each cell held before the step, once per step', () => {
    const steps = new StagingSteps();
    expect(
      steps.run(() => {
        steps.record(1, undefined);
        steps.record(1, true);
        steps.record(2, false);
      }),
    ).toBe(true);
    expect(steps.run(() => undefined)).toBe(false);
    expect([...(steps.pop() ?? [])]).toEqual([
      [1, undefined],
      [2, false],
    ]);
    expect(steps.pop()).toBeUndefined();
  });
});
