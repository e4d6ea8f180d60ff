import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import type { PlanPreview } from '../../lib/bindings/PlanPreview';
import { openMembershipsPage } from '../../test/memberships';

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
});
