import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import { grid, openMembershipsPage as open, pendingCount } from '../../test/memberships';
import { encodeGrid } from '../../lib/memberships/wire';
import { HEAD_H, ROW } from '../../lib/memberships/gridGeometry';

const groupCell = (groupId: number, streamId: number) =>
  screen.getByTestId(`group-cell-${groupId}-${streamId}`);
const cell = (userId: number, streamId: number) => screen.getByTestId(`cell-${userId}-${streamId}`);
/** A channel's ± in its header. */
const header = (streamId: number) =>
  screen
    .getByTestId(`column-menu-${String(streamId)}`)
    .parentElement?.querySelector('.fill') as HTMLElement;
const rowHeader = (testid: string) => within(screen.getByTestId(testid)).getByRole('rowheader');

async function press(key: string, to: () => HTMLElement, init: KeyboardEventInit = {}) {
  await fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });
  await waitFor(() => {
    expect(document.activeElement).toBe(to());
  });
}

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

  it('sits in the grid, frozen above the people, with a legend for the mixed state', async () => {
    await open();
    await fireEvent.click(screen.getByRole('checkbox', { name: 'Every group as a row' }));
    await screen.findByTestId('group-row-30');
    // One grid: the group rows are its rows 2-4 (legend, research, theory), the people next.
    const grid = screen.getByTestId('membership-grid');
    expect(screen.queryAllByRole('grid')).toEqual([grid]);
    expect(grid).toHaveAttribute('aria-rowcount', String(1 + 3 + 4));
    expect(grid).toContainElement(screen.getByTestId('group-row-31'));
    expect(screen.getByTestId('group-row-30')).toHaveAttribute('aria-rowindex', '3');
    expect(screen.getByTestId('group-row-31')).toHaveAttribute('aria-rowindex', '4');
    expect(cell(1, 1).closest('[role="row"]')).toHaveAttribute('aria-rowindex', '5');
    expect(within(screen.getByTestId('group-row-30')).getByRole('rowheader')).toHaveTextContent(
      'research, 3 members',
    );
    expect(within(screen.getByTestId('group-row-31')).getByRole('rowheader')).toHaveTextContent(
      'theory, 1 member',
    );
    // The legend row says what a filled, half-filled and empty group cell is.
    const legend = within(grid).getAllByRole('rowheader')[0];
    expect(legend).toHaveTextContent('half filled when some are');
    // Frozen: the band sticks under the channels' headers; people rows start below it.
    const band = screen.getByTestId('group-row-30').parentElement;
    expect(band?.getAttribute('style')).toContain(`height: ${String(3 * ROW)}px`);
    expect(cell(1, 1).closest('[role="row"]')?.getAttribute('style')).toContain(
      `top: ${String(HEAD_H + 3 * ROW)}px`,
    );
  });

  it('is reached with the arrows from the first person row, and back', async () => {
    await open();
    await pickGroup(30);
    cell(2, 3).focus();
    await press('ArrowUp', () => groupCell(30, 3));
    expect(groupCell(30, 3)).toHaveAttribute('tabindex', '0');
    await press('ArrowUp', () => screen.getByTestId('sync-channel-3'));
    await press('ArrowUp', () => header(3));
    await press('ArrowDown', () => screen.getByTestId('sync-channel-3'));
    await press('ArrowDown', () => groupCell(30, 3));
    await press('ArrowDown', () => cell(2, 3));
    // Home in the band: its row header; Ctrl+End still ends on the last person's last cell.
    await press('ArrowUp', () => groupCell(30, 3));
    await press('Home', () => rowHeader('group-row-30'));
    await press('End', () => cell(4, 5), { ctrlKey: true });
    await press(
      'Home',
      () =>
        screen
          .getByTestId('membership-grid')
          .querySelector('[data-r="-1"][data-c="-1"]') as HTMLElement,
      { ctrlKey: true },
    );
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
    // The channel's ⇄, in the band's first row, opens the dialog.
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
