import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { app } from '../lib/stores/app.svelte';
import { useFakeBackend } from '../test/backend';
import { appStatus, ipcError, overview } from '../test/fixtures';
import { grid } from '../test/memberships';
import { encodeGrid } from '../lib/memberships/wire';
import MembershipsPage from './MembershipsPage.svelte';

describe('MembershipsPage', () => {
  it('shows the realm, its version, role counts, streams and people', async () => {
    useFakeBackend({
      app_status: () => appStatus(),
      organization_overview: () => overview(),
      load_memberships: () => encodeGrid(grid()),
      list_membership_applies: () => [],
    });
    await app.load();
    render(MembershipsPage);

    expect(await screen.findByTestId('realm-name')).toHaveTextContent('Lumen Labs');
    expect(screen.getByText('http://lumen.localhost')).toBeInTheDocument();
    expect(screen.getByText(/Zulip 10\.0 \(feature level 362\)/)).toBeInTheDocument();

    // The grid replaces the lists: people by channel.
    expect(await screen.findByTestId('cell-1-1')).toHaveAttribute('aria-checked', 'true');

    // Active humans by role, counted from the grid's people; bots and deactivated apart.
    expect(screen.getByTestId('role-count-owner')).toHaveTextContent('1');
    expect(screen.getByTestId('role-count-administrator')).toHaveTextContent('1');
    expect(screen.getByTestId('role-count-member')).toHaveTextContent('1');
    expect(screen.getByTestId('role-count-guest')).toHaveTextContent('0');
    expect(screen.getByTestId('role-count-bots')).toHaveTextContent('1');
    expect(screen.getByTestId('role-count-deactivated')).toHaveTextContent('1');
    const table = screen.getByRole('grid');
    expect(within(table).getByRole('rowheader', { name: /Deploy notices/ })).toHaveTextContent(
      'Bot of Ada Lovelace',
    );
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent.trim()),
    ).toEqual([
      '4 people · 3 channels',
      expect.stringContaining('general'),
      expect.stringContaining('leadership'),
      expect.stringContaining('random'),
    ]);
  });

  it('shows a loading state, then a readable error with a retry', async () => {
    let fail = true;
    let answer: () => void = () => undefined;
    const backend = useFakeBackend({
      app_status: () => appStatus(),
      load_memberships: () => encodeGrid(grid()),
      list_membership_applies: () => [],
      organization_overview: async () => {
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        if (fail) throw ipcError('network', 'connection refused');
        return overview();
      },
    });
    await app.load();
    render(MembershipsPage);

    expect(await screen.findByRole('status')).toHaveTextContent('Loading the organization');
    answer();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not reach the server.');
    expect(alert).toHaveAttribute('data-testid', 'error');

    fail = false;
    within(alert).getByRole('button', { name: 'Try again' }).click();
    await screen.findByRole('status');
    answer();
    expect(await screen.findByTestId('realm-name')).toHaveTextContent('Lumen Labs');
    expect(backend.calls.filter(([name]) => name === 'organization_overview')).toHaveLength(2);
  });

  it('invites to add an account when none is active', async () => {
    const backend = useFakeBackend({
      app_status: () => appStatus({ activeAccountId: null, accounts: [] }),
    });
    await app.load();
    render(MembershipsPage);

    expect(screen.getByTestId('no-account')).toHaveTextContent('No account is active');
    expect(screen.getByRole('button', { name: 'Go to Accounts' })).toBeInTheDocument();
    expect(backend.calls.map(([name]) => name)).not.toContain('organization_overview');
  });
});
