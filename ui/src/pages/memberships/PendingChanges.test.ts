import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import type { PlanPreview } from '../../lib/bindings/PlanPreview';
import { openMembershipsPage, openReview, pendingCount } from '../../test/memberships';

describe('the pending changes panel', () => {
  it('says how many requests Apply will send, planned for the current diff', async () => {
    const asked: MembershipChange[][] = [];
    const backend = await openMembershipsPage({
      plan_membership_changes: ({ request }): PlanPreview => {
        asked.push(request.changes);
        const streams = new Set(request.changes.map((c) => c.streamId));
        return {
          requests: [...streams].map(() => ({ subscribe: false, streams: 1, people: 1 })),
          cellCount: request.changes.length,
          skipped: [],
        };
      },
    });
    await fireEvent.click(screen.getByTestId('cell-2-1'));
    expect(await screen.findByTestId('planned-requests')).toHaveTextContent('1 request');

    await fireEvent.click(screen.getByTestId('cell-2-3'));
    await waitFor(() => {
      expect(screen.getByTestId('planned-requests')).toHaveTextContent('2 requests');
    });
    // Asked once staging paused, with the whole diff: not once per click.
    expect(asked.at(-1)).toHaveLength(2);

    await fireEvent.click(screen.getByRole('button', { name: 'Discard all' }));
    expect(screen.queryByTestId('planned-requests')).toBeNull();
    expect(backend.calls.filter(([name]) => name === 'apply_membership_changes')).toHaveLength(0);
  });

  it('lists the diff once staging pauses, and drops a discarded change at once', async () => {
    await openMembershipsPage();
    const discards = () => screen.queryAllByRole('button', { name: /^Discard: / });
    await fireEvent.click(screen.getByTestId('cell-2-1'));
    await fireEvent.click(screen.getByTestId('cell-2-3'));
    await openReview();
    // Counted at once; listed (laid out) only when the clicks stop.
    expect(pendingCount()).toBe('2');
    expect(discards()).toHaveLength(0);
    await waitFor(() => {
      expect(discards()).toHaveLength(2);
    });
    await fireEvent.click(discards()[0] as HTMLElement);
    expect(discards()).toHaveLength(1);
    expect(pendingCount()).toBe('1');
  });
});
