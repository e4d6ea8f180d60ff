import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { app } from '../lib/stores/app.svelte';
import { useFakeBackend } from '../test/backend';
import { appStatus, bots, ipcError } from '../test/fixtures';
import BotsPage from './BotsPage.svelte';

describe('BotsPage', () => {
  it("lists the account's bots with their type names", async () => {
    useFakeBackend({ app_status: () => appStatus(), list_bots: () => bots });
    await app.load();
    render(BotsPage);

    const rows = await screen.findAllByTestId('bot-row');
    expect(rows).toHaveLength(4);
    const byName = (name: string) =>
      rows.find((r) => within(r).getByRole('rowheader').textContent === name);
    expect(byName('Deploy notices')).toHaveTextContent('deploy-bot@lumen.test');
    expect(byName('Deploy notices')).toHaveTextContent('Incoming webhook');
    expect(byName('Helper')).toHaveTextContent('Generic');
    expect(byName('Triage')).toHaveTextContent('Outgoing webhook');
    expect(byName('Triage')).toHaveTextContent('Deactivated');
    expect(byName('Welcome')).toHaveTextContent('Embedded');
    expect(byName('Welcome')).toHaveTextContent('Active');
  });

  it('says so when the account has no bots', async () => {
    useFakeBackend({ app_status: () => appStatus(), list_bots: () => [] });
    await app.load();
    render(BotsPage);

    expect(await screen.findByTestId('bots-empty')).toHaveTextContent('No bots yet');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a readable error', async () => {
    useFakeBackend({
      app_status: () => appStatus(),
      list_bots: () => {
        throw ipcError('rate_limited', 'API usage exceeded rate limit');
      },
    });
    await app.load();
    render(BotsPage);

    expect(await screen.findByRole('alert')).toHaveTextContent('rate limiting');
  });
});
