import { describe, expect, it, vi } from 'vitest';
import { REVIEW_DEBOUNCE_MS, Staging, type StagingKind } from './staging.svelte';

/** A change of a toy kind: set `key` to `value`. */
interface Change {
  key: string;
  value: number;
}
interface Report {
  sent: number;
  results: { change: Change; error: string | null }[];
}

/** A server of numbers, and a staging of changes to it; `refuse` names keys it refuses. */
function toy(refuse: string[] = []) {
  const server = new Map<string, number>([
    ['a', 1],
    ['b', 1],
    ['c', 1],
  ]);
  const planned: Change[][] = [];
  const staging: Staging<string, number, Change, number, Report> = new Staging({
    changes: () => [...staging.values].map(([key, value]) => ({ key, value })),
    plan: (changes) => {
      planned.push(changes);
      return Promise.resolve(changes.length);
    },
    apply: (changes, onProgress) => {
      const results = changes.map((change, i) => {
        onProgress({ done: i + 1, total: changes.length, waitingSeconds: null });
        if (refuse.includes(change.key)) return { change, error: 'refused' };
        const before = server.get(change.key) ?? 0;
        server.set(change.key, change.value);
        return { change: { key: change.key, value: before }, error: null };
      });
      return Promise.resolve({ sent: changes.length, results });
    },
    planned: (count) => (count === 0 ? null : { count, detail: '' }),
    counts: (report) => {
      const failed = report.results.filter((r) => r.error !== null).length;
      return { done: report.results.length - failed, sent: report.sent, failed, cancelled: false };
    },
    settle: () => Promise.resolve(),
    restage: (report) => {
      for (const { change, error } of report.results) {
        if (error === null) continue;
        staging.put(change.key, change.value);
        staging.failed.set(change.key, error);
      }
    },
    reverse: (report) =>
      (report?.results ?? []).filter((r) => r.error === null).map((r) => r.change),
    stage: (changes) => {
      let staged = 0;
      for (const { key, value } of changes) {
        const differs = server.get(key) !== value;
        staging.put(key, differs ? value : undefined);
        if (differs) staged++;
      }
      return staged;
    },
  } satisfies StagingKind<Change, number, Report>);
  return { server, staging, planned };
}

describe('the staging model', () => {
  it('takes back a step whole, nested steps joining the outer one', () => {
    const { staging } = toy();
    staging.step(() => {
      staging.put('a', 2);
      staging.step(() => {
        staging.put('b', 3);
      });
    });
    staging.step(() => {
      staging.put('a', 5);
    });
    expect(staging.undoable).toBe(2);
    expect(staging.undoStep()).toBe(true);
    expect(staging.values.get('a')).toBe(2);
    expect(staging.undoStep()).toBe(true);
    expect(staging.size).toBe(0);
    expect(staging.undoStep()).toBe(false);
  });

  it('plans once staging pauses, with everything staged then', async () => {
    vi.useFakeTimers();
    try {
      const { staging, planned } = toy();
      staging.step(() => {
        staging.put('a', 2);
      });
      staging.scheduleReview();
      staging.step(() => {
        staging.put('b', 2);
      });
      staging.scheduleReview();
      await vi.advanceTimersByTimeAsync(REVIEW_DEBOUNCE_MS);
      expect(planned).toHaveLength(1);
      expect(staging.planned?.count).toBe(2);
      staging.discardStep();
      staging.scheduleReview();
      expect(staging.planned).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('applies with progress, keeps failures staged, and undoes what was applied', async () => {
    const { staging, server } = toy(['c']);
    staging.stageStep([
      { key: 'a', value: 7 },
      { key: 'c', value: 7 },
    ]);
    await staging.apply();
    expect(staging.progress).toEqual({ done: 2, total: 2, waitingSeconds: null });
    expect(server.get('a')).toBe(7);
    expect(staging.status).toBe('Applied 1 change in 2 requests. 1 not applied: still staged.');
    expect([...staging.values]).toEqual([['c', 7]]);
    expect(staging.failed.get('c')).toBe('refused');
    expect(staging.undoReady).toBe(true);

    staging.discardStep();
    expect(await staging.undo()).toBe(1);
    expect([...staging.values]).toEqual([['a', 1]]);
    expect(staging.undoReady).toBe(false);
    expect(staging.status).toBeNull();
  });
});
