import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AccountSummary } from '../lib/bindings/AccountSummary';
import { app } from '../lib/stores/app.svelte';
import { commandNames, useFakeBackend } from '../test/backend';
import { acmeAccount, appStatus, demoAccount, ipcError, overview } from '../test/fixtures';
import AccountsPage from './AccountsPage.svelte';

/** A backend whose accounts change as commands are called. */
function accountsBackend(extra: Parameters<typeof useFakeBackend>[0] = {}) {
  let accounts: AccountSummary[] = [demoAccount, acmeAccount];
  let activeId = 1;
  const status = () =>
    appStatus({
      activeAccountId: activeId,
      accounts: accounts.map((a) => ({ ...a, isActive: a.id === activeId })),
    });
  return useFakeBackend({
    app_status: status,
    organization_overview: () => overview({ realmName: activeId === 1 ? 'Lumen Labs' : 'Acme' }),
    switch_account: ({ request }) => {
      activeId = request.id;
      return { ...acmeAccount, isActive: true };
    },
    remove_account: ({ request }) => {
      accounts = accounts.filter((a) => a.id !== request.id);
      return null;
    },
    add_account: ({ request }) => {
      const account = { ...acmeAccount, id: 9, label: 'New', site: request.site, isActive: true };
      accounts = [...accounts, account];
      activeId = 9;
      return account;
    },
    ...extra,
  });
}

async function renderPage() {
  await app.load();
  render(AccountsPage);
}

describe('AccountsPage', () => {
  it('lists accounts with site, e-mail, demo and active markers', async () => {
    accountsBackend();
    await renderPage();

    const rows = screen.getAllByTestId('account-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Lumen Labs');
    expect(rows[0]).toHaveTextContent('Demo');
    expect(rows[0]).toHaveTextContent('Active');
    expect(rows[0]).toHaveTextContent('ada@lumen.test');
    expect(rows[1]).toHaveTextContent('https://acme.zulipchat.com');
    expect(rows[1]).not.toHaveTextContent('Active');
    // Only inactive accounts can be switched to.
    expect(within(rows[0] as HTMLElement).queryByRole('button', { name: /Switch/ })).toBeNull();
  });

  it('switches account, then reloads the status and the overview', async () => {
    const backend = accountsBackend();
    await renderPage();
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Switch to Acme' }));

    await waitFor(() => {
      expect(commandNames(backend)).toEqual([
        'app_status',
        'switch_account',
        'app_status',
        'organization_overview',
      ]);
    });
    expect(backend.calls[1]).toEqual(['switch_account', { request: { id: 2 } }]);
    expect(app.activeAccountId).toBe(2);
    expect(screen.getByTestId('accounts-notice')).toHaveTextContent('Switched to Acme.');
  });

  it('removes an account after confirming', async () => {
    const backend = accountsBackend();
    await renderPage();
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Remove Acme' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Acme?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove account' }));

    await waitFor(() => {
      expect(screen.getAllByTestId('account-row')).toHaveLength(1);
    });
    expect(backend.calls).toContainEqual(['remove_account', { request: { id: 2 } }]);
  });

  it('adds an account from the form, submitted with Enter', async () => {
    const backend = accountsBackend();
    await renderPage();
    const user = userEvent.setup();

    await user.type(screen.getByLabelText('Server URL'), 'https://new.example.com');
    await user.type(screen.getByLabelText('E-mail'), 'me@new.example.com');
    await user.type(screen.getByLabelText('API key'), 'abcdef{Enter}');

    await waitFor(() => {
      expect(screen.getAllByTestId('account-row')).toHaveLength(3);
    });
    expect(backend.calls).toContainEqual([
      'add_account',
      {
        request: { site: 'https://new.example.com', email: 'me@new.example.com', apiKey: 'abcdef' },
      },
    ]);
    expect(commandNames(backend)).toContain('organization_overview');
    expect(screen.getByLabelText('API key')).toHaveValue('');
    expect(screen.getByLabelText('API key')).toHaveAttribute('type', 'password');
  });

  it('shows a readable message when the server rejects the credentials', async () => {
    accountsBackend({
      add_account: () => {
        throw ipcError('unauthorized', 'Invalid API key');
      },
    });
    await renderPage();
    const user = userEvent.setup();

    await user.type(screen.getByTestId('add-account-site'), 'https://chat.example.com');
    await user.type(screen.getByTestId('add-account-email'), 'me@example.com');
    await user.type(screen.getByTestId('add-account-api-key'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Add account' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-testid', 'error');
    expect(alert).toHaveTextContent('The server rejected this e-mail and API key.');
    // What was typed stays, to be corrected.
    expect(screen.getByTestId('add-account-email')).toHaveValue('me@example.com');
  });

  it('asks for all three fields before calling the backend', async () => {
    const backend = accountsBackend();
    await renderPage();
    const user = userEvent.setup();

    await user.type(screen.getByTestId('add-account-site'), 'https://chat.example.com{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Fill in the server URL, e-mail and API key.',
    );
    expect(commandNames(backend)).not.toContain('add_account');
  });

  it('imports a zuliprc and deletes the plaintext file when asked to', async () => {
    const backend = accountsBackend({
      import_zuliprc: ({ request }) => ({
        account: { ...acmeAccount, id: 7, label: 'Imported' },
        path: request.path,
        canDeleteFile: true,
      }),
      delete_zuliprc: () => null,
    });
    await renderPage();
    const user = userEvent.setup();

    await user.type(screen.getByTestId('zuliprc-path'), '/home/ada/zuliprc');
    await user.click(screen.getByTestId('zuliprc-import'));

    const offer = await screen.findByTestId('zuliprc-delete-offer');
    expect(offer).toHaveTextContent(
      'The API key is now in your system keyring. Delete the plaintext file /home/ada/zuliprc?',
    );
    expect(backend.calls).toContainEqual([
      'import_zuliprc',
      { request: { path: '/home/ada/zuliprc' } },
    ]);

    await user.click(within(offer).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(screen.queryByTestId('zuliprc-delete-offer')).not.toBeInTheDocument();
    });
    expect(backend.calls).toContainEqual([
      'delete_zuliprc',
      { request: { path: '/home/ada/zuliprc' } },
    ]);
    expect(screen.getByTestId('accounts-notice')).toHaveTextContent('Deleted /home/ada/zuliprc.');
  });

  it('keeps the file when asked to, and does not offer deletion when it cannot', async () => {
    let canDeleteFile = true;
    const backend = accountsBackend({
      import_zuliprc: ({ request }) => ({
        account: { ...acmeAccount, id: 7, label: 'Imported' },
        path: request.path,
        canDeleteFile,
      }),
    });
    await renderPage();
    const user = userEvent.setup();

    await user.type(screen.getByTestId('zuliprc-path'), '/home/ada/zuliprc{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Keep' }));
    expect(screen.queryByTestId('zuliprc-delete-offer')).not.toBeInTheDocument();
    expect(commandNames(backend)).not.toContain('delete_zuliprc');

    canDeleteFile = false;
    await user.type(screen.getByTestId('zuliprc-path'), '/etc/weir/zuliprc{Enter}');
    await waitFor(() => {
      expect(screen.getByTestId('accounts-notice')).toHaveTextContent('/etc/weir/zuliprc');
    });
    expect(screen.queryByTestId('zuliprc-delete-offer')).not.toBeInTheDocument();
  });

  it('explains an invalid zuliprc', async () => {
    accountsBackend({
      import_zuliprc: () => {
        throw ipcError('invalid_zuliprc', 'no "key" in [api]');
      },
    });
    await renderPage();
    const user = userEvent.setup();

    await user.type(screen.getByTestId('zuliprc-path'), '/tmp/zuliprc{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This file is not a usable zuliprc: no "key" in [api].',
    );
  });

  it('shows how to fix an unavailable keyring', async () => {
    useFakeBackend({
      app_status: () =>
        appStatus({ keyring: { available: false, message: 'Start gnome-keyring and unlock it.' } }),
    });
    await renderPage();

    expect(screen.getByTestId('keyring-banner')).toHaveTextContent(
      'Start gnome-keyring and unlock it.',
    );
  });
});
