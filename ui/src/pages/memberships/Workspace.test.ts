import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ApplyOutcome } from '../../lib/bindings/ApplyOutcome';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import { memberships } from '../../lib/stores/memberships.svelte';
import { openMembershipsPage as open, pendingCount } from '../../test/memberships';

const cell = (user: number, stream: number) => screen.getByTestId(`cell-${user}-${stream}`);
const staged = () =>
  screen.queryAllByTestId(/^cell-/).filter((c) => c.getAttribute('data-staged') === 'true');

async function columnMenu(streamId: number): Promise<HTMLElement> {
  await fireEvent.click(screen.getByTestId(`column-menu-${streamId}`));
  return screen.findByRole('menu');
}

function item(menu: HTMLElement, name: RegExp): HTMLElement {
  return within(menu).getByRole('menuitem', { name });
}

function applied(changes: MembershipChange[]): ApplyOutcome {
  return {
    journalId: 7,
    requestsTotal: 1,
    requestsSent: 1,
    cancelled: false,
    results: changes.map((c) => ({
      ...c,
      status: c.subscribe ? 'subscribed' : 'removed',
      ok: true,
      message: null,
    })),
  };
}

describe('the pending bar', () => {
  it('appears as soon as something is staged, and goes when nothing is', async () => {
    await open();
    expect(screen.queryByTestId('pending-bar')).toBeNull();
    await fireEvent.click(cell(2, 1));
    const bar = screen.getByTestId('pending-bar');
    expect(bar).toHaveTextContent('1 change');
    expect(within(bar).getByTestId('apply-changes')).toHaveTextContent('Apply 1 change');
    await fireEvent.click(cell(4, 1));
    expect(bar).toHaveTextContent('2 changes');
    await fireEvent.click(within(bar).getByRole('button', { name: 'Discard all' }));
    expect(screen.queryByTestId('pending-bar')).toBeNull();
  });

  it('opens the pending list beside the grid with Review', async () => {
    await open();
    await fireEvent.click(cell(2, 1));
    const review = screen.getByRole('button', { name: 'Review' });
    expect(review).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: /Pending changes/ })).toBeNull();
    await fireEvent.click(review);
    expect(review).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: /Pending changes/ })).toBeInTheDocument();
  });

  it("keeps the last apply's status until something new is staged", async () => {
    await open({ apply_membership_changes: ({ request }) => applied(request.changes) });
    await fireEvent.click(cell(2, 5));
    await fireEvent.click(screen.getByTestId('apply-changes'));
    const status = await screen.findByTestId('apply-status');
    expect(status).toHaveTextContent('Applied 1 change in 1 request.');
    await waitFor(() => {
      expect(pendingCount()).toBe('0');
    });
    expect(screen.getByTestId('apply-status')).toBeInTheDocument();
    await fireEvent.click(cell(4, 5));
    expect(screen.queryByTestId('apply-status')).toBeNull();
    expect(pendingCount()).toBe('1');
  });
});

describe('column and row menus', () => {
  it('say how many cells each action stages, and who is included', async () => {
    await open();
    const menu = await columnMenu(5);
    // #random has nobody: Ada, Alan, Claude and Ada's bot are shown (Tim is deactivated).
    expect(item(menu, /Subscribe everyone shown/)).toHaveTextContent('4 cells, 1 bot included');
    expect(item(menu, /Remove everyone shown/)).toBeDisabled();
    expect(item(menu, /Reset/)).toBeDisabled();
    await fireEvent.click(item(menu, /Subscribe everyone shown/));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(staged().map((c) => c.dataset['testid'])).toEqual([
      'cell-1-5',
      'cell-2-5',
      'cell-4-5',
      'cell-101-5',
    ]);
    expect(pendingCount()).toBe('4');
  });

  it("resets a column to the server's state, leaving other columns staged", async () => {
    await open();
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(cell(4, 1));
    await fireEvent.click(cell(2, 3));
    const menu = await columnMenu(1);
    expect(item(menu, /Reset/)).toHaveTextContent('2 cells staged');
    await fireEvent.click(item(menu, /Reset/));
    expect(cell(2, 1)).toHaveAttribute('aria-checked', 'true');
    expect(cell(4, 1)).toHaveAttribute('aria-checked', 'true');
    expect(cell(2, 1)).not.toHaveAttribute('data-staged');
    expect(cell(2, 3)).toHaveAttribute('data-staged', 'true');
    expect(pendingCount()).toBe('1');
  });

  it("shows a column's staged effect in its header", async () => {
    await open();
    const header = () =>
      screen
        .getAllByTestId('stream-header')
        .find((h) => h.dataset['streamId'] === '1') as HTMLElement;
    expect(header()).toHaveAttribute('title', '#general: 4 subscribers');
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(cell(4, 1));
    expect(header()).toHaveAttribute('title', '#general: 4 → 2 subscribers');
  });

  it("stages or resets a person's row from the row menu", async () => {
    await open();
    await fireEvent.click(screen.getByTestId('row-menu-4'));
    const menu = await screen.findByRole('menu', { name: 'Actions for Claude Shannon' });
    // Claude is in #general only; #leadership and #random are open to the owner.
    expect(item(menu, /Subscribe to every channel shown/)).toHaveTextContent('2 cells');
    await fireEvent.click(item(menu, /Subscribe to every channel shown/));
    expect(cell(4, 3)).toHaveAttribute('aria-checked', 'true');
    expect(cell(4, 5)).toHaveAttribute('aria-checked', 'true');
    await fireEvent.click(screen.getByTestId('row-menu-4'));
    await fireEvent.click(item(await screen.findByRole('menu'), /Reset/));
    expect(pendingCount()).toBe('0');
  });

  it('closes with Escape and gives focus back to the column header', async () => {
    await open();
    const menu = await columnMenu(5);
    await waitFor(() => {
      expect(document.activeElement).toBe(item(menu, /Subscribe everyone shown/));
    });
    await fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toHaveAccessibleName('Toggle everyone shown in #random');
    });
  });
});

describe('applying', () => {
  it('asks first, naming the channel, when a change empties it', async () => {
    await open({ apply_membership_changes: ({ request }) => applied(request.changes) });
    await fireEvent.click(item(await columnMenu(1), /Remove everyone shown/));
    expect(pendingCount()).toBe('4');
    await fireEvent.click(screen.getByTestId('apply-changes'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('#general would have no subscribers left.');
    expect(screen.getByTestId('confirm-apply')).toBeInTheDocument();
  });

  it('applies without asking when nothing is at risk', async () => {
    await open({ apply_membership_changes: ({ request }) => applied(request.changes) });
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(screen.getByTestId('apply-changes'));
    expect(await screen.findByTestId('apply-status')).toHaveTextContent('Applied 1 change');
  });
});

describe('Ctrl+Z', () => {
  it('takes back the last staging step, a whole column at once', async () => {
    await open();
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(item(await columnMenu(5), /Subscribe everyone shown/));
    expect(pendingCount()).toBe('5');
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(pendingCount()).toBe('1');
    expect(cell(2, 1)).toHaveAttribute('data-staged', 'true');
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(pendingCount()).toBe('0');
    expect(memberships.undoable).toBe(0);
  });

  it('brings back what Discard all dropped, and leaves text fields their own undo', async () => {
    await open();
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(cell(4, 3));
    await fireEvent.click(screen.getByRole('button', { name: 'Discard all' }));
    expect(pendingCount()).toBe('0');
    const search = screen.getByTestId('user-filter');
    await fireEvent.keyDown(search, { key: 'z', ctrlKey: true });
    expect(pendingCount()).toBe('0');
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(pendingCount()).toBe('2');
  });
});
