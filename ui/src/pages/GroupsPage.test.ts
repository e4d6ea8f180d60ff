import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { GroupApplyReport } from '../lib/bindings/GroupApplyReport';
import type { GroupMemberChange } from '../lib/bindings/GroupMemberChange';
import { app } from '../lib/stores/app.svelte';
import { useFakeBackend } from '../test/backend';
import { appStatus, ipcError, overview } from '../test/fixtures';
import { encodeGrid, type PlainGrid } from '../lib/memberships/wire';
import { grid, largeGrid } from '../test/memberships';
import GroupsPage from './GroupsPage.svelte';

const gcell = (userId: number, groupId: number) => screen.getByTestId(`gcell-${userId}-${groupId}`);

type Handlers = Parameters<typeof useFakeBackend>[0];

/** The groups page on the test grid: research (30: Alan, Tim; subgroup 31), theory (31:
 *  Claude). Ada (1) is the viewer. */
async function open(handlers: Handlers = {}, data: PlainGrid = grid()) {
  const backend = useFakeBackend({
    app_status: () => appStatus(),
    organization_overview: () => overview(),
    load_memberships: () => encodeGrid(data),
    list_membership_applies: () => [],
    list_group_member_applies: () => [],
    undo_group_member_apply: () => [],
    plan_group_member_changes: ({ request }: { request: { changes: GroupMemberChange[] } }) => {
      const byGroup = new Set(request.changes.map((c) => c.groupId));
      return {
        requests: [...byGroup].map((groupId) => ({
          groupId,
          add: [],
          delete: [],
          subgroups: false,
        })),
        cellCount: request.changes.length,
        skipped: [],
      };
    },
    ...handlers,
  });
  await app.load();
  render(GroupsPage);
  await screen.findByTestId('gcell-1-30');
  return backend;
}

function calls(backend: { calls: [string, unknown][] }, name: string): unknown[] {
  return backend.calls.filter(([n]) => n === name).map(([, args]) => args);
}

describe('GroupsPage', () => {
  it('shows direct membership per person and group, and membership through a subgroup as via', async () => {
    await open();
    expect(gcell(2, 30)).toHaveAttribute('role', 'checkbox');
    expect(gcell(2, 30)).toHaveAttribute('aria-checked', 'true');
    expect(gcell(4, 31)).toHaveAttribute('aria-checked', 'true');
    // Claude is in research through theory only: shown, not editable there.
    const via = gcell(4, 30);
    expect(via).toHaveTextContent('via theory');
    expect(via).toHaveAttribute('data-via', '31');
    expect(via).toHaveAttribute('aria-disabled', 'true');
    expect(via.getAttribute('aria-label')).toContain('member via theory');
    await fireEvent.click(via);
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('0');
    // Nobody else is in research through a subgroup.
    expect(gcell(1, 30)).not.toHaveAttribute('data-via');
    // Deactivated people are not rows.
    expect(screen.queryByTestId('gcell-7-30')).toBeNull();
  });

  it("brings the create form's name field from the toolbar", async () => {
    await open();
    await fireEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(screen.getByTestId('group-name')).toHaveFocus();
  });

  it('stages cells, promises the planned request count, applies, and undo stages the reverse', async () => {
    const after = grid();
    const research = after.groups[0];
    if (research) research.directMembers = [0, 1, 3];
    let loads = 0;
    const report: GroupApplyReport = {
      requestsTotal: 1,
      requestsSent: 1,
      cells: [{ change: { userId: 1, groupId: 30, member: true }, error: null }],
    };
    const backend = await open({
      load_memberships: () => encodeGrid(loads++ === 0 ? grid() : after),
      apply_group_member_changes: () => report,
      // The journal's reverse of the apply.
      undo_group_member_apply: () => [{ userId: 1, groupId: 30, member: false }],
    });
    await fireEvent.click(gcell(1, 30));
    expect(gcell(1, 30)).toHaveAttribute('aria-checked', 'true');
    expect(gcell(1, 30)).toHaveAttribute('data-staged', 'true');
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('1');
    expect(await screen.findByTestId('gplanned-requests')).toHaveTextContent('1 request');

    await fireEvent.click(screen.getByTestId('gapply-changes'));
    expect(await screen.findByTestId('gapply-status')).toHaveTextContent(
      'Applied 1 change in 1 request.',
    );
    expect(calls(backend, 'apply_group_member_changes')).toHaveLength(1);
    expect(calls(backend, 'apply_group_member_changes')[0]).toMatchObject({
      request: { changes: [{ userId: 1, groupId: 30, member: true }] },
    });
    await waitFor(() => {
      expect(gcell(1, 30)).toHaveAttribute('data-staged', 'false');
    });
    expect(gcell(1, 30)).toHaveAttribute('aria-checked', 'true');

    const undo = screen.getByTestId('gundo');
    undo.focus();
    await fireEvent.click(undo);
    await waitFor(() => {
      expect(gcell(1, 30)).toHaveAttribute('aria-checked', 'false');
    });
    expect(gcell(1, 30)).toHaveAttribute('data-staged', 'true');
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('1');
    expect(screen.queryByTestId('gundo')).toBeNull();
    // The Undo button went with the entry: focus is on Apply.
    await waitFor(() => {
      expect(screen.getByTestId('gapply-changes')).toHaveFocus();
    });
  });

  it('keeps a failed cell staged with the server message', async () => {
    await open({
      apply_group_member_changes: () => ({
        requestsTotal: 1,
        requestsSent: 1,
        cells: [{ change: { userId: 1, groupId: 30, member: true }, error: 'Nope' }],
      }),
    });
    await fireEvent.click(gcell(1, 30));
    await fireEvent.click(screen.getByTestId('gapply-changes'));
    expect(await screen.findByTestId('gapply-status')).toHaveTextContent('1 not applied');
    await waitFor(() => {
      expect(gcell(1, 30).getAttribute('aria-label')).toContain('failed: Nope');
    });
    expect(gcell(1, 30)).toHaveAttribute('data-staged', 'true');
  });

  it('disables cells the account may not change, with the reason', async () => {
    const data = grid('member');
    const theory = data.groups[1];
    if (theory) theory.addDenied = 'Only the group’s managers can add members.';
    await open({}, data);
    const denied = gcell(1, 31);
    expect(denied).toHaveAttribute('aria-disabled', 'true');
    expect(denied).toHaveAttribute('title', 'Only the group’s managers can add members.');
    expect(denied.getAttribute('aria-label')).toContain('Only the group’s managers');
    await fireEvent.click(denied);
    expect(denied).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('0');
    // Removing is still allowed.
    expect(gcell(4, 31)).not.toHaveAttribute('aria-disabled');
  });

  it("shows a group's direct members and subgroups from its column header", async () => {
    await open();
    await fireEvent.click(screen.getByRole('button', { name: /^research 2 direct/ }));
    const detail = screen.getByTestId('group-members-of-30');
    expect(within(detail).getByText('Alan Turing')).toBeInTheDocument();
    expect(within(detail).getByText('Tim Berners-Lee')).toBeInTheDocument();
    expect(within(detail).getByText('theory')).toBeInTheDocument();
    expect(within(detail).queryByText('Claude Shannon')).toBeNull();
  });

  it("stages a group's subgroups in its panel, refuses a cycle, and applies them with the members", async () => {
    const backend = await open({
      apply_group_member_changes: () => ({
        requestsTotal: 1,
        requestsSent: 1,
        cells: [{ change: { userId: 0, groupId: 30, member: false, subgroupId: 31 }, error: null }],
      }),
    });
    await fireEvent.click(screen.getByRole('button', { name: /^theory 1 direct/ }));
    const theory = screen.getByTestId('group-members-of-31');
    // research contains theory: adding research to theory would make a cycle.
    const option = within(theory).getByRole('option', { name: 'research (contains this group)' });
    expect(option).toBeDisabled();
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('0');

    await fireEvent.click(screen.getByRole('button', { name: /^research 2 direct \+ 1 sub/ }));
    const research = screen.getByTestId('group-members-of-30');
    await fireEvent.click(within(research).getByTestId('subgroup-remove-31'));
    // Staged: theory is listed as to remove, and Claude is no longer in research at all.
    expect(within(research).getByText('− to remove')).toBeInTheDocument();
    expect(gcell(4, 30)).not.toHaveAttribute('data-via');
    expect(gcell(4, 30)).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('1');
    // Ctrl+Z-able like any step: Keep brings it back, then remove again.
    await fireEvent.click(within(research).getByTestId('subgroup-keep-31'));
    expect(gcell(4, 30)).toHaveAttribute('data-via', '31');
    await fireEvent.click(within(research).getByTestId('subgroup-remove-31'));

    await fireEvent.click(screen.getByTestId('gapply-changes'));
    expect(await screen.findByTestId('gapply-status')).toHaveTextContent('Applied 1 change');
    expect(calls(backend, 'apply_group_member_changes')[0]).toMatchObject({
      request: { changes: [{ userId: 0, groupId: 30, member: false, subgroupId: 31 }] },
    });
  });

  it('adds a subgroup from the panel, and a new subgroup makes its members via', async () => {
    await open();
    await fireEvent.click(screen.getByRole('button', { name: /^theory 1 direct/ }));
    const theory = screen.getByTestId('group-members-of-31');
    expect(within(theory).getByTestId('subgroup-add')).toBeDisabled();
    // Nothing else to add in the test grid but research, which contains theory.
    expect(
      within(theory)
        .getAllByRole('option')
        .filter((o) => !(o as HTMLOptionElement).disabled)
        .map((o) => o.textContent),
    ).toEqual(['Choose a group…']);
    // Once research no longer contains theory, research may become theory's subgroup.
    await fireEvent.click(screen.getByRole('button', { name: /^research 2 direct/ }));
    await fireEvent.click(screen.getByTestId('subgroup-remove-31'));
    await fireEvent.click(screen.getByRole('button', { name: /^theory 1 direct/ }));
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('subgroup-add-select'), '30');
    expect(screen.getByTestId('subgroup-add')).toBeEnabled();
    await user.click(screen.getByTestId('subgroup-add'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('2');
    // Alan is a direct member of research, so now in theory via research.
    expect(gcell(2, 31)).toHaveTextContent('via research');
    expect(
      within(screen.getByTestId('group-members-of-31')).getByText('+ to add'),
    ).toBeInTheDocument();
  });

  it('creates a group from the selected people', async () => {
    const backend = await open({ create_user_group: () => 42 });
    const user = userEvent.setup();
    await user.click(
      screen.getByRole('checkbox', { name: 'Select Claude Shannon for a new group' }),
    );
    await user.type(screen.getByTestId('group-name'), 'infra');
    await user.type(screen.getByTestId('group-description'), 'Pipes');
    await user.click(screen.getByTestId('create-group'));
    expect(await screen.findByTestId('group-created')).toHaveTextContent(
      'Created infra with 1 person.',
    );
    expect(calls(backend, 'create_user_group')).toEqual([
      { request: { name: 'infra', description: 'Pipes', members: [4] } },
    ]);
  });

  it('shows the server error when creating fails, and refuses an empty name', async () => {
    const backend = await open({
      create_user_group: () => {
        throw ipcError('zulip_error', "User group 'infra' already exists.");
      },
    });
    await fireEvent.click(screen.getByTestId('create-group'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Give the group a name.');
    expect(calls(backend, 'create_user_group')).toHaveLength(0);
    await userEvent.type(screen.getByTestId('group-name'), 'infra');
    await fireEvent.click(screen.getByTestId('create-group'));
    await waitFor(() => {
      expect(screen.getByRole('alert')).toHaveTextContent('already exists');
    });
  });

  it('moves between cells with the arrow keys, one Tab stop', async () => {
    await open();
    const first = gcell(1, 30);
    first.focus();
    await fireEvent.keyDown(first, { key: 'ArrowRight' });
    await waitFor(() => {
      expect(gcell(1, 31)).toHaveFocus();
    });
    expect(gcell(1, 31)).toHaveAttribute('tabindex', '0');
    expect(first).toHaveAttribute('tabindex', '-1');
    await fireEvent.keyDown(gcell(1, 31), { key: ' ' });
    expect(gcell(1, 31)).toHaveAttribute('data-staged', 'true');
  });

  it('exports the shown people × groups with staged cells, and an import stages its edit', async () => {
    const backend = await open({
      export_groups_csv: () => null,
      import_groups_csv: () => ({
        changes: [
          { userId: 4, groupId: 30, member: true },
          // Already so on the server: not staged, not counted.
          { userId: 2, groupId: 30, member: true },
        ],
        denied: [
          {
            change: { userId: 2, groupId: 31, member: true },
            reason: 'Only the group’s managers and those who manage all groups can add members.',
          },
        ],
        unknownPeople: ['ghost@example.com'],
        unknownGroups: ['no such group'],
      }),
    });
    await fireEvent.click(gcell(1, 31));
    const user = userEvent.setup();
    await user.type(screen.getByTestId('csv-path'), '/tmp/groups.csv');
    await user.click(screen.getByTestId('export-csv'));
    expect(await screen.findByTestId('csv-status')).toHaveTextContent(
      'Exported 4 people × 2 groups to /tmp/groups.csv.',
    );
    expect(calls(backend, 'export_groups_csv')).toEqual([
      {
        request: {
          path: '/tmp/groups.csv',
          userIds: [1, 2, 4, 101],
          groupIds: [30, 31],
          staged: [{ userId: 1, groupId: 31, member: true }],
        },
      },
    ]);

    await user.click(screen.getByTestId('import-csv'));
    await waitFor(() => {
      expect(screen.getByTestId('csv-status')).toHaveTextContent(
        'Staged 1 change from the file. 1 not allowed, skipped: Only the group’s managers and those who manage all groups can add members. Unknown people: ghost@example.com. Unknown groups: no such group.',
      );
    });
    expect(gcell(4, 30)).toHaveAttribute('data-staged', 'true');
    expect(gcell(4, 30)).toHaveAttribute('aria-checked', 'true');
    expect(gcell(2, 31)).toHaveAttribute('data-staged', 'false');
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('2');
    // Reviewed before any request: nothing applied.
    expect(calls(backend, 'apply_group_member_changes')).toHaveLength(0);
  });

  it('shows why an import failed', async () => {
    await open({
      import_groups_csv: () => {
        throw ipcError('invalid_input', "line 3, group 'research': 'maybe' is neither yes nor no");
      },
    });
    const user = userEvent.setup();
    await user.type(screen.getByTestId('csv-path'), '/tmp/groups.csv');
    await user.click(screen.getByTestId('import-csv'));
    expect(await screen.findByTestId('csv-status')).toHaveTextContent("group 'research'");
    expect(screen.getByTestId('gpending-count')).toHaveTextContent('0');
  });

  it('renders a window of rows for thousands of people', async () => {
    await open({}, largeGrid(5000));
    const rows = screen.getAllByTestId(/^group-person-/);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByRole('grid')).toHaveAttribute('aria-rowcount', String(5004 + 1));
  });
});
