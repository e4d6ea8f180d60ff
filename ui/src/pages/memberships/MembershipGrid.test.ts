import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ApplyOutcome } from '../../lib/bindings/ApplyOutcome';
import type { MembershipChange } from '../../lib/bindings/MembershipChange';
import type { ProgressChannel } from '../../lib/ipc';
import type { ApplyProgress } from '../../lib/bindings/ApplyProgress';
import { GRID_CSS_VARS } from '../../lib/memberships/gridGeometry';
import { memberships } from '../../lib/stores/memberships.svelte';
import {
  grid,
  largeGrid,
  openMembershipsPage as open,
  renderMembershipsPage,
  pendingCount,
  openReview,
} from '../../test/memberships';
import { encodeGrid } from '../../lib/memberships/wire';

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
    expect(pendingCount()).toBe('0');
    expect(screen.getByRole('grid')).toHaveAttribute('aria-rowcount', '5');
  });

  it('builds the cells after the first frame, keeping the grid reachable meanwhile', async () => {
    await renderMembershipsPage();
    const gridElement = await screen.findByRole('grid');
    // The first frame is the painted canvas: no cells yet, but the corner is the Tab stop.
    expect(screen.queryByTestId('cell-1-1')).toBeNull();
    expect(within(gridElement).getByRole('columnheader')).toHaveAttribute('tabindex', '0');
    await screen.findByTestId('cell-1-1');
  });

  it("lays the accessible layer out with the painter's geometry", async () => {
    await open();
    const style = screen.getByRole('grid').style;
    for (const [name, value] of Object.entries(GRID_CSS_VARS)) {
      expect(style.getPropertyValue(name)).toBe(value);
    }
  });

  it('stages a click, shows the staged state, and unstages a second click', async () => {
    await open();
    await fireEvent.click(cell(2, 1));
    expect(cell(2, 1)).toHaveAttribute('aria-checked', 'false');
    expect(cell(2, 1)).toHaveAttribute('data-staged', 'true');
    expect(pendingCount()).toBe('1');
    expect(screen.getByTestId('pending-bar')).toHaveTextContent('1 change');
    // The list (opened by Review) follows once staging pauses.
    await openReview();
    await waitFor(() => {
      expect(screen.getByRole('region', { name: /Pending changes/ })).toHaveTextContent(
        /#general.*Alan Turing/,
      );
    });
    await fireEvent.click(cell(2, 1));
    expect(cell(2, 1)).toHaveAttribute('aria-checked', 'true');
    expect(cell(2, 1)).not.toHaveAttribute('data-staged');
    expect(pendingCount()).toBe('0');
  });

  it('disables cells a member may not change, with the reason, and stages nothing', async () => {
    await open({ load_memberships: () => encodeGrid(grid('member')) });
    const alan = cell(2, 1);
    expect(alan).toHaveAttribute('aria-disabled', 'true');
    expect(alan).toHaveAttribute(
      'title',
      expect.stringMatching(/Only organization administrators/),
    );
    expect(alan.getAttribute('aria-label')).toMatch(/Only organization administrators/);
    await fireEvent.click(alan);
    expect(alan).toHaveAttribute('aria-checked', 'true');
    expect(pendingCount()).toBe('0');
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

  it('stages a rectangle with shift-click', async () => {
    await open();
    // Alan and Claude leave general and leadership... Claude is not in leadership.
    await fireEvent.click(cell(2, 1));
    await fireEvent.click(cell(4, 3), { shiftKey: true });
    expect(cell(4, 1)).toHaveAttribute('aria-checked', 'false');
    expect(cell(2, 3)).toHaveAttribute('aria-checked', 'false');
    expect(cell(4, 3)).not.toHaveAttribute('data-staged');
    expect(pendingCount()).toBe('3');
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

/** The grid's focusable element at a `gridNav` position (-1: a header). */
const at = (r: number, c: number) => {
  const found = screen
    .getByRole('grid')
    .querySelector<HTMLElement>(`[data-r="${r}"][data-c="${c}"]`);
  if (!found) throw new Error(`nothing rendered at ${r},${c}`);
  return found;
};

/** Presses `key` on the focused element and waits for focus to land on `to`. */
async function press(key: string, to: () => HTMLElement, init: KeyboardEventInit = {}) {
  await fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });
  await waitFor(() => {
    expect(document.activeElement).toBe(to());
  });
}

/** Every element inside the grid that Tab stops on. */
const tabStops = () =>
  [...screen.getByRole('grid').querySelectorAll<HTMLElement>('[tabindex]')].filter(
    (el) => el.tabIndex >= 0,
  );

const pending = pendingCount;

describe('the memberships grid by keyboard (ARIA grid pattern)', () => {
  it('has one Tab stop, which follows the arrows and stops at the edges', async () => {
    await open();
    expect(tabStops()).toEqual([cell(1, 1)]);
    cell(1, 1).focus();
    await press('ArrowRight', () => cell(1, 3));
    expect(tabStops()).toEqual([cell(1, 3)]);
    await press('ArrowDown', () => cell(2, 3));
    await press('ArrowLeft', () => cell(2, 1));
    await press('ArrowUp', () => cell(1, 1));
    await press('End', () => cell(1, 5));
    await press('ArrowRight', () => cell(1, 5));
    await press('PageDown', () => cell(101, 5));
    await press('ArrowDown', () => cell(101, 5));
    await press('PageUp', () => at(-1, 2));
    expect(tabStops()).toEqual([at(-1, 2)]);
  });

  it('reaches the row headers as column 0, the channel headers as row 0, and the corner', async () => {
    await open();
    cell(2, 3).focus();
    await press('Home', () => at(1, -1));
    expect(at(1, -1)).toHaveAccessibleName('Toggle every channel shown for Alan Turing');
    expect(at(1, -1).closest('[role="rowheader"]')).toHaveAttribute('aria-colindex', '1');
    expect(at(1, -1).closest('[role="row"]')).toHaveAttribute('aria-rowindex', '3');
    expect(tabStops()).toEqual([at(1, -1)]);
    await press('ArrowLeft', () => at(1, -1));
    await press('ArrowRight', () => cell(2, 1));
    await press('ArrowUp', () => cell(1, 1));
    await press('ArrowUp', () => at(-1, 0));
    expect(at(-1, 0)).toHaveAccessibleName('Toggle everyone shown in #general');
    expect(at(-1, 0).closest('[role="columnheader"]')).toHaveAttribute('aria-colindex', '2');
    await press('ArrowUp', () => at(-1, 0));
    await press('ArrowLeft', () => at(-1, -1));
    expect(at(-1, -1)).toHaveAttribute('role', 'columnheader');
    expect(at(-1, -1)).toHaveTextContent('4 people · 3 channels');
    await press('End', () => at(-1, 2));
    await press('End', () => cell(101, 5), { ctrlKey: true });
    await press('Home', () => at(-1, -1), { ctrlKey: true });
    await press('PageDown', () => at(3, -1));
  });

  it('toggles a cell with Space and Enter, and a range with Shift', async () => {
    await open();
    cell(2, 1).focus();
    await fireEvent.keyDown(cell(2, 1), { key: ' ' });
    expect(cell(2, 1)).toHaveAttribute('data-staged', 'true');
    expect(cell(2, 1)).toHaveAttribute('aria-checked', 'false');
    await fireEvent.keyDown(cell(2, 1), { key: 'Enter' });
    expect(cell(2, 1)).not.toHaveAttribute('data-staged');
    await fireEvent.keyDown(cell(2, 1), { key: ' ' });
    await press('ArrowDown', () => cell(4, 1));
    await press('ArrowRight', () => cell(4, 3));
    await fireEvent.keyDown(cell(4, 3), { key: ' ', shiftKey: true });
    expect(cell(4, 1)).toHaveAttribute('aria-checked', 'false');
    expect(cell(2, 3)).toHaveAttribute('aria-checked', 'false');
    expect(pending()).toBe('3');
  });

  it('fills a row or a column with Space or Enter on its header, once per press', async () => {
    await open();
    cell(4, 1).focus();
    await press('Home', () => at(2, -1));
    // Claude: general yes, leadership and random no, so the fill subscribes both.
    const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    at(2, -1).dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    await waitFor(() => {
      expect(pending()).toBe('2');
    });
    expect(cell(4, 3)).toHaveAttribute('aria-checked', 'true');
    expect(cell(4, 5)).toHaveAttribute('aria-checked', 'true');
    // All checked now: the fill unchecks the row, so only general differs from the server.
    await fireEvent.keyDown(at(2, -1), { key: ' ' });
    expect(pending()).toBe('1');
    expect(cell(4, 1)).toHaveAttribute('aria-checked', 'false');
    await press('ArrowUp', () => at(1, -1));
    await press('Home', () => at(-1, -1), { ctrlKey: true });
    await fireEvent.keyDown(at(-1, -1), { key: ' ' });
    expect(pending()).toBe('1');
    await press('End', () => at(-1, 2));
    await fireEvent.keyDown(at(-1, 2), { key: ' ' });
    expect(pending()).toBe('5');
    expect(cell(101, 5)).toHaveAttribute('data-staged', 'true');
  });

  it('stages nothing on a disabled cell', async () => {
    await open({ load_memberships: () => encodeGrid(grid('member')) });
    cell(2, 1).focus();
    await fireEvent.keyDown(cell(2, 1), { key: ' ' });
    expect(cell(2, 1)).not.toHaveAttribute('data-staged');
    expect(pending()).toBe('0');
  });

  it('keeps the focused row rendered when the grid scrolls it out of the window', async () => {
    await open({ load_memberships: () => encodeGrid(largeGrid(500)) });
    const grid = screen.getByRole('grid');
    cell(1, 1).focus();
    await press('ArrowDown', () => cell(2, 1));
    const rendered = () => grid.querySelectorAll('[role="row"]').length;
    expect(rendered()).toBeLessThan(40);
    // As a mouse wheel would: far down, then the frame that renders the new window.
    grid.scrollTop = 300 * 34;
    await fireEvent.scroll(grid);
    await waitFor(() => {
      expect(screen.queryByTestId('cell-1-1')).toBeNull();
    });
    expect(document.activeElement).toBe(cell(2, 1));
    expect(rendered()).toBeLessThan(40);
    expect(tabStops()).toEqual([cell(2, 1)]);
    expect(cell(2, 1).closest('[role="row"]')).toHaveAttribute('aria-rowindex', '3');
    await press('ArrowDown', () => cell(4, 1));
    expect(grid.scrollTop).toBe(2 * 34);
    await press('End', () => at(503, 2), { ctrlKey: true });
    expect(at(503, 2).closest('[role="row"]')).toHaveAttribute('aria-rowindex', '505');
    expect(grid).toHaveAttribute('aria-rowcount', '505');
  });

  it('hides the focus ring while the focused cell is scrolled under the headers', async () => {
    await open({ load_memberships: () => encodeGrid(largeGrid(500)) });
    const grid = screen.getByRole('grid');
    cell(1, 1).focus();
    expect(grid).not.toHaveClass('focus-covered');
    grid.scrollTop = 10;
    await fireEvent.scroll(grid);
    expect(grid).toHaveClass('focus-covered');
    grid.scrollTop = 0;
    await fireEvent.scroll(grid);
    expect(grid).not.toHaveClass('focus-covered');
  });

  it('stages a painted cell clicked before the cells under it are rendered', async () => {
    await open({ load_memberships: () => encodeGrid(largeGrid(500)) });
    const grid = screen.getByRole('grid');
    grid.scrollTop = 200 * 34;
    await fireEvent.scroll(grid);
    const p = memberships.visiblePeople[200] ?? -1;
    const userId = memberships.index?.person(p)?.userId;
    // Scrolling has outrun the DOM layer: the click lands on the sheet, over the painting.
    expect(screen.queryByTestId(`cell-${userId}-1`)).toBeNull();
    const sheet = grid.firstElementChild as HTMLElement;
    await fireEvent.click(sheet, { clientX: 280 + 10, clientY: 150 + 10 });
    expect(pending()).toBe('1');
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(userId ?? -1, 1));
    });
    expect(cell(userId ?? -1, 1)).toHaveAttribute('data-staged', 'true');
  });

  it('keeps the focused column rendered when the grid scrolls it out sideways', async () => {
    await open({ load_memberships: () => encodeGrid(largeGrid(0, 300)) });
    const grid = screen.getByRole('grid');
    const headers = () => grid.querySelectorAll('[data-testid="stream-header"]').length;
    cell(1, 1).focus();
    await press('ArrowUp', () => at(-1, 0));
    expect(headers()).toBeLessThan(40);
    grid.scrollLeft = 200 * 34;
    await fireEvent.scroll(grid);
    await waitFor(() => {
      expect(screen.queryByTestId('cell-1-3')).toBeNull();
    });
    // The channel header in focus and its column's cells stay; the window moved on.
    expect(document.activeElement).toBe(at(-1, 0));
    expect(cell(2, 1)).toBeInTheDocument();
    expect(headers()).toBeLessThan(40);
    expect(tabStops()).toEqual([at(-1, 0)]);
    await press('ArrowRight', () => at(-1, 1));
    expect(grid.scrollLeft).toBe(34);
    await press('End', () => at(-1, 302));
    expect(at(-1, 302).closest('[role="columnheader"]')).toHaveAttribute('aria-colindex', '304');
  });

  it('keeps a Tab stop when filters shrink the grid, on the headers when it is empty', async () => {
    await open();
    cell(101, 5).focus();
    await fireEvent.input(screen.getByTestId('user-filter'), { target: { value: 'ada' } });
    await waitFor(() => {
      expect(tabStops()).toEqual([cell(1, 5)]);
    });
    await fireEvent.input(screen.getByTestId('user-filter'), { target: { value: 'nobody' } });
    await waitFor(() => {
      expect(tabStops()).toEqual([at(-1, 2)]);
    });
  });
});

describe('focus after pending-changes actions', () => {
  const button = (name: string | RegExp) => screen.getByRole('button', { name });

  it('goes back to the grid when Discard all disables itself', async () => {
    await open();
    await fireEvent.click(cell(2, 3));
    await fireEvent.click(cell(4, 1));
    button('Discard all').focus();
    await fireEvent.click(button('Discard all'));
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(4, 1));
    });
    // Nothing staged: the pending bar goes with its buttons.
    expect(screen.queryByTestId('pending-bar')).toBeNull();
  });

  it('moves to the next discard button, then the previous, then the grid', async () => {
    await open();
    for (const [user, stream] of [
      [2, 1],
      [4, 1],
      [2, 3],
    ] as const)
      await fireEvent.click(cell(user, stream));
    await openReview();
    const discards = () => screen.getAllByRole('button', { name: /^Discard: / });
    await waitFor(() => {
      expect(discards()).toHaveLength(3);
    });
    const [first, second, third] = discards();
    first?.focus();
    await fireEvent.click(first as HTMLElement);
    await waitFor(() => {
      expect(document.activeElement).toBe(second);
    });
    third?.focus();
    await fireEvent.click(third as HTMLElement);
    await waitFor(() => {
      expect(document.activeElement).toBe(second);
    });
    await fireEvent.click(second as HTMLElement);
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(2, 3));
    });
    expect(pending()).toBe('0');
  });

  it('after Apply, stays on Apply while changes are left, else goes to the grid', async () => {
    await open({
      apply_membership_changes: ({ request }) => ({
        journalId: 1,
        requestsTotal: 1,
        requestsSent: 1,
        cancelled: false,
        results: request.changes.map((c) => ({
          ...c,
          status: c.userId === 4 ? 'failed' : 'removed',
          ok: c.userId !== 4,
          message: c.userId === 4 ? 'Insufficient permission' : null,
        })),
      }),
    });
    await fireEvent.click(cell(2, 1));
    screen.getByTestId('apply-changes').focus();
    await fireEvent.click(screen.getByTestId('apply-changes'));
    await screen.findByTestId('apply-status');
    await waitFor(() => {
      expect(document.activeElement).toBe(cell(2, 1));
    });
    await fireEvent.click(cell(4, 1));
    screen.getByTestId('apply-changes').focus();
    await fireEvent.click(screen.getByTestId('apply-changes'));
    await waitFor(() => {
      expect(screen.getByTestId('apply-status')).toHaveTextContent('1 not applied');
    });
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByTestId('apply-changes'));
    });
  });
});
