import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ApplyOutcome } from '../../lib/bindings/ApplyOutcome';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import type { ProgressChannel } from '../../lib/ipc';
import type { ApplyProgress } from '../../lib/bindings/ApplyProgress';
import { app } from '../../lib/stores/app.svelte';
import { memberships } from '../../lib/stores/memberships.svelte';
import { useFakeBackend } from '../../test/backend';
import { appStatus, overview } from '../../test/fixtures';
import { grid } from '../../test/memberships';
import MembershipsPage from '../MembershipsPage.svelte';

async function open(handlers: Parameters<typeof useFakeBackend>[0] = {}) {
  const backend = useFakeBackend({
    app_status: () => appStatus(),
    organization_overview: () => overview(),
    load_memberships: () => grid(),
    list_membership_applies: () => [],
    ...handlers,
  });
  await app.load();
  render(MembershipsPage);
  await screen.findByTestId('cell-1-1');
  return backend;
}

const cell = (userId: number, streamId: number) => screen.getByTestId(`cell-${userId}-${streamId}`);

describe('the memberships grid', () => {
  it('shows every active person × channel as a checkbox with the contract attributes', async () => {
    await open();
    expect(cell(1, 1)).toHaveAttribute('role', 'checkbox');
    expect(cell(1, 1)).toHaveAttribute('aria-checked', 'true');
    expect(cell(4, 3)).toHaveAttribute('aria-checked', 'false');
    expect(cell(4, 3)).not.toHaveAttribute('data-staged');
    expect(cell(101, 1)).toHaveAttribute('aria-checked', 'true');
    expect(screen.queryByTestId('cell-7-1')).toBeNull();
    expect(screen.getByTestId('pending-count')).toHaveTextContent('0');
    expect(screen.getByRole('grid')).toHaveAttribute('aria-rowcount', '5');
  });

  it('stages a click, shows the staged state, and unstages a second click', async () => {
    await open();
    await fireEvent.click(cell(2, 1));
    expect(cell(2, 1)).toHaveAttribute('aria-checked', 'false');
    expect(cell(2, 1)).toHaveAttribute('data-staged', 'true');
    expect(screen.getByTestId('pending-count')).toHaveTextContent('1');
    expect(screen.getByRole('region', { name: /Pending changes/ })).toHaveTextContent(
      /#general.*Alan Turing/,
    );
    await fireEvent.click(cell(2, 1));
    expect(cell(2, 1)).toHaveAttribute('aria-checked', 'true');
    expect(cell(2, 1)).not.toHaveAttribute('data-staged');
    expect(screen.getByTestId('pending-count')).toHaveTextContent('0');
  });

  it('disables cells a member may not change, with the reason, and stages nothing', async () => {
    await open({ load_memberships: () => grid('member') });
    const alan = cell(2, 1);
    expect(alan).toHaveAttribute('aria-disabled', 'true');
    expect(alan).toHaveAttribute(
      'title',
      expect.stringMatching(/Only organization administrators/),
    );
    expect(alan.getAttribute('aria-label')).toMatch(/Only organization administrators/);
    await fireEvent.click(alan);
    expect(alan).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('pending-count')).toHaveTextContent('0');
    expect(cell(1, 1)).not.toHaveAttribute('aria-disabled');
  });

  it('filters rows and columns', async () => {
    await open();
    await fireEvent.input(screen.getByTestId('user-filter'), { target: { value: 'claude' } });
    await waitFor(() => {
      expect(screen.queryByTestId('cell-1-1')).toBeNull();
    });
    expect(cell(4, 1)).toBeInTheDocument();
    await fireEvent.input(screen.getByTestId('stream-filter'), { target: { value: 'rand' } });
    await waitFor(() => {
      expect(screen.queryByTestId('cell-4-1')).toBeNull();
    });
    expect(cell(4, 5)).toBeInTheDocument();
  });

  it('moves focus with the arrow keys, toggles with Space and jumps with Home and End', async () => {
    await open();
    const first = cell(1, 1);
    expect(first).toHaveAttribute('tabindex', '0');
    first.focus();
    await fireEvent.keyDown(first, { key: 'ArrowRight' });
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(1, 3));
    });
    expect(cell(1, 3)).toHaveAttribute('tabindex', '0');
    expect(first).toHaveAttribute('tabindex', '-1');
    await fireEvent.keyDown(cell(1, 3), { key: 'ArrowDown' });
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(2, 3));
    });
    await fireEvent.keyDown(cell(2, 3), { key: ' ' });
    expect(cell(2, 3)).toHaveAttribute('data-staged', 'true');
    await fireEvent.keyDown(cell(2, 3), { key: 'End' });
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(2, 5));
    });
    await fireEvent.keyDown(cell(2, 5), { key: 'Home' });
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(2, 1));
    });
  });

  it('stages a rectangle with shift-click', async () => {
    await open();
    // Alan and Claude leave general and leadership... Claude is not in leadership.
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(cell(4, 3), { shiftKey: true });
    expect(cell(4, 1)).toHaveAttribute('aria-checked', 'false');
    expect(cell(2, 3)).toHaveAttribute('aria-checked', 'false');
    expect(cell(4, 3)).not.toHaveAttribute('data-staged');
    expect(screen.getByTestId('pending-count')).toHaveTextContent('3');
  });

  it('applies, reports progress and the outcome, and keeps failed cells staged', async () => {
    let sent: MembershipChange[] = [];
    const outcome = (changes: MembershipChange[]): ApplyOutcome => ({
      journalId: 1,
      requestsTotal: 1,
      requestsSent: 1,
      cancelled: false,
      results: changes.map((c) => ({
        ...c,
        status: c.userId === 4 ? 'failed' : 'removed',
        ok: c.userId !== 4,
        message: c.userId === 4 ? 'Insufficient permission' : null,
      })),
    });
    let progress: ProgressChannel<ApplyProgress> | null = null;
    await open({
      apply_membership_changes: ({ request, onProgress }) => {
        sent = request.changes;
        progress = onProgress;
        onProgress.onmessage({ done: 1, total: 1, waitingSeconds: null });
        return outcome(request.changes);
      },
    });
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(cell(4, 1));
    await fireEvent.click(screen.getByTestId('apply-changes'));
    const status = await screen.findByTestId('apply-status');
    expect(status).toHaveTextContent('Applied 1 change in 1 request. 1 not applied: still staged.');
    expect(progress).not.toBeNull();
    expect(sent).toEqual(
      expect.arrayContaining([
        { userId: 2, streamId: 1, subscribe: false },
        { userId: 4, streamId: 1, subscribe: false },
      ]),
    );
    await waitFor(() => {
      expect(cell(4, 1)).toHaveAttribute('data-staged', 'true');
    });
    expect(cell(2, 1)).not.toHaveAttribute('data-staged');
    expect(cell(4, 1).getAttribute('aria-label')).toMatch(/Insufficient permission/);
  });

  it('asks before removing the last subscriber of a private channel', async () => {
    const backend = await open({
      apply_membership_changes: ({ request }) => ({
        journalId: 1,
        requestsTotal: 1,
        requestsSent: 1,
        cancelled: false,
        results: request.changes.map((c) => ({ ...c, status: 'removed', ok: true, message: null })),
      }),
    });
    await fireEvent.click(cell(1, 3));
    await fireEvent.click(cell(2, 3));
    await fireEvent.click(screen.getByTestId('apply-changes'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('You leave the private channel #leadership.');
    expect(dialog).toHaveTextContent('#leadership is private and would have no subscribers left.');
    expect(backend.calls.map(([name]) => name)).not.toContain('apply_membership_changes');
    await fireEvent.click(within(dialog).getByTestId('confirm-apply'));
    expect(await screen.findByTestId('apply-status')).toHaveTextContent('Applied 2 changes');
  });

  it('stages the reverse of the last apply for review', async () => {
    await open({
      list_membership_applies: () => [
        {
          id: 9,
          appliedAt: 1_700_000_000,
          requestsTotal: 1,
          requestsSent: 1,
          cancelled: false,
          changed: 1,
          failed: 0,
        },
      ],
      undo_membership_apply: () => [{ userId: 4, streamId: 5, subscribe: true }],
    });
    const undo = await screen.findByTestId('undo-last-apply');
    await waitFor(() => {
      expect(undo).toBeEnabled();
    });
    await fireEvent.click(undo);
    await waitFor(() => {
      expect(cell(4, 5)).toHaveAttribute('data-staged', 'true');
    });
    expect(cell(4, 5)).toHaveAttribute('aria-checked', 'true');
    expect(memberships.changes()).toEqual([{ userId: 4, streamId: 5, subscribe: true }]);
  });
});
