import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import App from './App.svelte';
import { commandNames, useFakeBackend } from './test/backend';
import {
  acmeAccount,
  appStatus,
  bots,
  ipcError,
  localServerStatus,
  overview,
} from './test/fixtures';

function standardBackend() {
  return useFakeBackend({
    app_status: () => appStatus(),
    organization_overview: () => overview(),
    list_bots: () => bots,
    list_integrations: () => [],
    webhook_catalog: () => ({ featureLevel: 362, integrations: [] }),
    preview_webhook_url: () => '',
    local_server_status: () => localServerStatus(),
    switch_account: () => ({ ...acmeAccount, isActive: true }),
  });
}

function currentNav(): string | null {
  return (
    screen
      .getByRole('navigation', { name: 'Main' })
      .querySelector('[aria-current="page"]')
      ?.getAttribute('data-testid') ?? null
  );
}

describe('App', () => {
  // The pages other than the first are loaded on demand; Vitest compiles a module on its
  // first import, so compile them once here rather than inside a test's wait.
  beforeAll(async () => {
    await Promise.all([
      import('./pages/BotsPage.svelte'),
      import('./pages/LocalServerPage.svelte'),
      import('./pages/AccountsPage.svelte'),
      import('./pages/GroupsPage.svelte'),
      import('./lib/components/JsonEditor.svelte'),
    ]);
  }, 120_000);

  it('starts from app_status and shows the active account and the overview', async () => {
    const backend = standardBackend();
    render(App);

    expect(await screen.findByTestId('realm-name')).toHaveTextContent('Lumen Labs');
    expect(commandNames(backend).slice(0, 2)).toEqual(['app_status', 'organization_overview']);
    const active = screen.getByTestId('active-account');
    expect(active).toHaveTextContent('Lumen Labs');
    expect(active).toHaveTextContent('127.0.0.1:40001');
    expect(active).toHaveTextContent('Demo');
    expect(currentNav()).toBe('nav-memberships');
  });

  it('switches pages with Ctrl+1..5 and moves focus to the page title', async () => {
    standardBackend();
    render(App);
    await screen.findByTestId('realm-name');

    await fireEvent.keyDown(window, { key: '2', ctrlKey: true });
    expect(currentNav()).toBe('nav-bots');
    expect(window.location.hash).toBe('#/bots');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Bots & webhooks' });
    await waitFor(() => {
      expect(heading).toHaveFocus();
    });
    expect(await screen.findByTestId('bot-101')).toHaveTextContent('Deploy notices');

    await fireEvent.keyDown(window, { key: '3', metaKey: true });
    expect(currentNav()).toBe('nav-local-server');
    expect(await screen.findByTestId('local-server-url')).toHaveTextContent(
      'http://127.0.0.1:40001',
    );

    await fireEvent.keyDown(window, { key: '4', ctrlKey: true });
    expect(currentNav()).toBe('nav-accounts');

    await fireEvent.keyDown(window, { key: '5', ctrlKey: true });
    expect(currentNav()).toBe('nav-groups');
    expect(window.location.hash).toBe('#/groups');

    await fireEvent.keyDown(window, { key: '1', ctrlKey: true });
    expect(currentNav()).toBe('nav-memberships');

    // Other chords are left alone.
    await fireEvent.keyDown(window, { key: '2', ctrlKey: true, shiftKey: true });
    await fireEvent.keyDown(window, { key: '2' });
    expect(currentNav()).toBe('nav-memberships');
  });

  it('reaches the account switcher and the nav with Tab, in order', async () => {
    standardBackend();
    render(App);
    await screen.findByTestId('realm-name');
    const user = userEvent.setup();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Skip to content' })).toHaveFocus();
    await user.tab();
    expect(screen.getByTestId('active-account')).toHaveFocus();
    await user.tab();
    expect(screen.getByTestId('nav-memberships')).toHaveFocus();
    await user.tab();
    expect(screen.getByTestId('nav-bots')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(currentNav()).toBe('nav-bots');
  });

  it('switches account from the sidebar and reloads the overview', async () => {
    let activeId = 1;
    const backend = useFakeBackend({
      app_status: () => {
        const status = appStatus({ activeAccountId: activeId });
        status.accounts = status.accounts.map((a) => ({ ...a, isActive: a.id === activeId }));
        return status;
      },
      organization_overview: () => overview({ realmName: activeId === 1 ? 'Lumen Labs' : 'Acme' }),
      switch_account: ({ request }) => {
        activeId = request.id;
        return { ...acmeAccount, isActive: true };
      },
    });
    render(App);
    await screen.findByTestId('realm-name');
    const user = userEvent.setup();

    await user.click(screen.getByTestId('active-account'));
    expect(screen.getByTestId('active-account')).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('list', { name: 'Switch account' });
    await user.click(within(list).getByRole('button', { name: /Acme/ }));

    await waitFor(() => {
      expect(screen.getByTestId('realm-name')).toHaveTextContent('Acme');
    });
    expect(screen.getByTestId('active-account')).toHaveTextContent('Acme');
    expect(screen.getByTestId('active-account')).not.toHaveTextContent('Demo');
    expect(commandNames(backend).filter((n) => n === 'organization_overview')).toHaveLength(2);
  });

  it('closes the account switcher with Escape and returns focus', async () => {
    standardBackend();
    render(App);
    await screen.findByTestId('realm-name');
    const user = userEvent.setup();

    await user.click(screen.getByTestId('active-account'));
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('active-account')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('active-account')).toHaveFocus();
  });

  it('shows a friendly state when no account is active', async () => {
    useFakeBackend({ app_status: () => appStatus({ activeAccountId: null, accounts: [] }) });
    render(App);

    expect(await screen.findByTestId('no-account')).toBeInTheDocument();
    expect(screen.getByTestId('active-account')).toHaveTextContent('No account');
  });

  it('shows a readable error when app_status fails', async () => {
    useFakeBackend({
      app_status: () => {
        throw ipcError('internal', 'database is locked');
      },
    });
    render(App);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Something went wrong inside Weir: database is locked',
    );
  });
});
