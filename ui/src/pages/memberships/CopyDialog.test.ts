import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import { openMembershipsPage as open, pendingCount } from '../../test/memberships';

const cell = (userId: number, streamId: number) => screen.getByTestId(`cell-${userId}-${streamId}`);

async function openCopyFor(userId: number) {
  await fireEvent.click(screen.getByTestId(`row-menu-${userId}`));
  const item = await screen.findByTestId('copy-from-person');
  // The menu opens on its first item.
  await waitFor(() => {
    expect(screen.getAllByRole('menuitem')[0]).toHaveFocus();
  });
  await fireEvent.click(item);
  await waitFor(() => {
    expect(screen.getByTestId('copy-dialog')).toHaveAttribute('open');
  });
}

describe('copy memberships', () => {
  it("stages a person's channels for the people picked, as the core plans them", async () => {
    // Alan is in general and leadership; Claude is in general only.
    const plan: MembershipChange[] = [{ userId: 4, streamId: 3, subscribe: true }];
    const backend = await open({ copy_memberships: () => plan });
    await openCopyFor(2);
    expect(screen.getByTestId('copy-source')).toHaveValue('2');
    // The template is not offered as a target.
    expect(screen.queryByTestId('copy-to-2')).toBeNull();
    await fireEvent.click(screen.getByTestId('copy-to-4'));
    await fireEvent.click(screen.getByTestId('copy-stage'));
    await screen.findByText(/Staged 1 change copying Alan Turing's channels to 1 person/);
    expect(backend.calls.filter(([name]) => name === 'copy_memberships')).toEqual([
      ['copy_memberships', { request: { from: 2, to: [4] } }],
    ]);
    expect(cell(4, 3)).toHaveAttribute('data-staged', 'true');
    expect(pendingCount()).toBe('1');
  });

  it('copies every public channel when asked, and needs someone picked', async () => {
    const backend = await open({ copy_memberships: () => [] });
    await openCopyFor(2);
    await userEvent.selectOptions(screen.getByTestId('copy-source'), '');
    await fireEvent.click(screen.getByTestId('copy-stage'));
    expect(await screen.findByText(/Pick at least one person/)).toBeInTheDocument();
    expect(backend.calls.filter(([name]) => name === 'copy_memberships')).toHaveLength(0);
    await fireEvent.input(screen.getByTestId('copy-filter'), { target: { value: 'claude' } });
    expect(screen.queryByTestId('copy-to-1')).toBeNull();
    await fireEvent.click(screen.getByTestId('copy-to-4'));
    await fireEvent.click(screen.getByTestId('copy-stage'));
    await screen.findByText(/copying every public channel/);
    expect(backend.calls.filter(([name]) => name === 'copy_memberships')).toEqual([
      ['copy_memberships', { request: { from: null, to: [4] } }],
    ]);
  });

  it('opens the row menu from the keyboard and closes it with Escape', async () => {
    await open();
    const fill = screen.getByRole('button', { name: /Toggle every channel shown for Alan/ });
    fill.focus();
    await fireEvent.keyDown(fill, { key: 'F10', shiftKey: true });
    await screen.findByTestId('copy-from-person');
    const first = screen.getAllByRole('menuitem')[0] as HTMLElement;
    await waitFor(() => {
      expect(first).toHaveFocus();
    });
    await fireEvent.keyDown(first, { key: 'Escape' });
    await waitFor(() => {
      expect(screen.queryByTestId('copy-from-person')).toBeNull();
    });
    await waitFor(() => {
      expect(fill).toHaveFocus();
    });
  });
});
