import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import { grid, openMembershipsPage as open, pendingCount } from '../../test/memberships';
import { encodeGrid } from '../../lib/memberships/wire';

const groupCell = (groupId: number, streamId: number) =>
  screen.getByTestId(`group-cell-${groupId}-${streamId}`);
const cell = (userId: number, streamId: number) => screen.getByTestId(`cell-${userId}-${streamId}`);

async function pickGroup(groupId: number) {
  await userEvent.selectOptions(screen.getByTestId('filter-group'), String(groupId));
  await screen.findByTestId(`group-row-${groupId}`);
}

describe('group rows', () => {
  it('filters people by group and shows the group as one tri-state row', async () => {
    await open();
    await pickGroup(30);
    // Research is Alan, Tim (deactivated) and, through its subgroup, Claude.
    expect(screen.queryByTestId('cell-1-1')).toBeNull();
    expect(cell(2, 1)).toBeInTheDocument();
    expect(cell(4, 1)).toBeInTheDocument();
    expect(groupCell(30, 1)).toHaveAttribute('role', 'checkbox');
    expect(groupCell(30, 1)).toHaveAttribute('aria-checked', 'true');
    expect(groupCell(30, 3)).toHaveAttribute('aria-checked', 'mixed');
    expect(groupCell(30, 5)).toHaveAttribute('aria-checked', 'false');
  });

  it("lines up with the grid's columns, scrolls with it, and explains the mixed state", async () => {
    await open();
    await fireEvent.click(screen.getByRole('checkbox', { name: 'Every group as a row' }));
    const rows = await screen.findByRole('grid', { name: 'Memberships by group' });
    expect(rows).toHaveTextContent('all some none');
    expect(screen.getByTestId('group-row-31')).toHaveTextContent('theory 1 member');
    expect(screen.getByTestId('group-row-30')).toHaveTextContent('research 3 members');
    // The grid's geometry, so each group cell sits over its channel's column.
    expect(rows.getAttribute('style')).toContain('--col-width: 34px');
    const grid = screen.getByTestId('membership-grid');
    grid.scrollLeft = 40;
    await fireEvent.scroll(grid);
    await waitFor(() => {
      expect(rows.scrollLeft).toBe(40);
    });
  });

  it("stages every active member's cell when toggled, and unstages on the way back", async () => {
    await open();
    await pickGroup(30);
    await fireEvent.click(groupCell(30, 5));
    expect(groupCell(30, 5)).toHaveAttribute('aria-checked', 'true');
    expect(cell(2, 5)).toHaveAttribute('data-staged', 'true');
    expect(cell(4, 5)).toHaveAttribute('data-staged', 'true');
    expect(pendingCount()).toBe('2');
    await fireEvent.click(groupCell(30, 5));
    expect(groupCell(30, 5)).toHaveAttribute('aria-checked', 'false');
    expect(pendingCount()).toBe('0');
    // Mixed → all, with the keyboard.
    groupCell(30, 3).focus();
    await fireEvent.keyDown(groupCell(30, 3), { key: ' ' });
    expect(groupCell(30, 3)).toHaveAttribute('aria-checked', 'true');
    expect(cell(4, 3)).toHaveAttribute('data-staged', 'true');
    expect(pendingCount()).toBe('1');
  });

  it('moves between group cells with the arrow keys', async () => {
    await open();
    await pickGroup(30);
    groupCell(30, 1).focus();
    await fireEvent.keyDown(groupCell(30, 1), { key: 'ArrowRight' });
    await waitFor(() => {
      expect(groupCell(30, 3)).toHaveFocus();
    });
    expect(groupCell(30, 3)).toHaveAttribute('tabindex', '0');
    expect(groupCell(30, 1)).toHaveAttribute('tabindex', '-1');
  });

  it('leaves cells the account may not change as they are', async () => {
    await open({ load_memberships: () => encodeGrid(grid('member')) });
    await pickGroup(30);
    // Removing Alan and Claude from #general needs an administrator.
    expect(groupCell(30, 1)).toHaveAttribute('aria-disabled', 'true');
    expect(groupCell(30, 1)).toHaveAttribute(
      'title',
      'Only organization administrators can remove other people from channels.',
    );
    expect(groupCell(30, 1).getAttribute('aria-label')).toContain(
      'Only organization administrators',
    );
    await fireEvent.click(groupCell(30, 1));
    expect(groupCell(30, 1)).toHaveAttribute('aria-checked', 'true');
    expect(pendingCount()).toBe('0');
    // Adding them to #random is theirs to do: enabled, and it stages.
    expect(groupCell(30, 5)).not.toHaveAttribute('aria-disabled');
    await fireEvent.click(groupCell(30, 5));
    expect(pendingCount()).toBe('2');
  });
});

describe('sync a channel with a group', () => {
  it('stages exactly what the core plans, replacing what was staged on the channel', async () => {
    const plan: MembershipChange[] = [
      { userId: 1, streamId: 1, subscribe: false },
      { userId: 2, streamId: 1, subscribe: false },
    ];
    const backend = await open({ plan_group_sync: () => plan });
    await pickGroup(30);
    // Staged before the sync, on the channel: replaced by the sync.
    await fireEvent.click(cell(4, 1));
    expect(pendingCount()).toBe('1');
    await fireEvent.click(screen.getByTestId('sync-channel-1'));
    await userEvent.selectOptions(screen.getByTestId('sync-group'), '31');
    await fireEvent.click(screen.getByTestId('sync-keep-others'));
    await fireEvent.click(screen.getByTestId('sync-keep-others'));
    await fireEvent.click(screen.getByTestId('sync-stage'));
    await screen.findByText(/Staged 2 changes to sync #general with theory/);
    const calls = backend.calls.filter(([name]) => name === 'plan_group_sync');
    expect(calls).toEqual([
      [
        'plan_group_sync',
        {
          request: {
            streamId: 1,
            groupId: 31,
            keep: { others: false, bots: false, admins: false },
          },
        },
      ],
    ]);
    expect(pendingCount()).toBe('2');
    expect(cell(2, 1)).toHaveAttribute('data-staged', 'true');
    expect(cell(4, 1)).not.toHaveAttribute('data-staged');
  });
});
