import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IntegrationSummary } from '../../lib/bindings/IntegrationSummary';
import type { WebhookCatalog } from '../../lib/bindings/WebhookCatalog';
import type { WebhookUrlSpec } from '../../lib/bindings/WebhookUrlSpec';
import type { FakeHandlers } from '../../lib/ipc';
import { app } from '../../lib/stores/app.svelte';
import { useFakeBackend } from '../../test/backend';
import { acmeAccount, appStatus, bots, demoAccount } from '../../test/fixtures';
import BotsPage from '../BotsPage.svelte';

/** Weir's own registry: what the local server serves and has samples for. */
const registry: IntegrationSummary[] = [
  {
    name: 'helloworld',
    displayName: 'Hello World',
    eventTypes: [],
    eventHeader: null,
    needsHeaderFixture: null,
    urlOptions: [],
    fixtures: [{ name: 'hello', body: '{"featured_title": "Tea"}', headers: [], event: null }],
  },
];

const GITHUB_OPTIONS = [
  { key: 'branches', label: '', kind: 'text' as const },
  {
    key: 'ignore_private_repositories',
    label: 'Exclude notifications from private repositories',
    kind: 'boolean' as const,
  },
];

/**
 * A real server's catalog as weir-core reads it: at level 318 the URL options came in
 * `config_options`, at 403 in `url_options` (weir-core's unit tests read both shapes);
 * either way the builder gets the same options.
 */
function realCatalog(featureLevel: number): WebhookCatalog {
  return {
    featureLevel,
    integrations: [
      { name: 'helloworld', displayName: 'Hello World', eventTypes: [], urlOptions: [] },
      {
        name: 'github',
        displayName: 'GitHub',
        eventTypes: ['push', 'issues', 'pull_request'],
        urlOptions: GITHUB_OPTIONS,
      },
      { name: 'gitlab', displayName: 'GitLab', eventTypes: [], urlOptions: [] },
      { name: 'zendesk', displayName: 'Zendesk', eventTypes: [], urlOptions: [] },
    ],
  };
}

/** The masked URL as the backend builds it (enough of it to see the spec). */
function previewUrl(spec: WebhookUrlSpec): string {
  const query = [
    ['stream', spec.stream],
    ['only_events', spec.onlyEvents.length ? JSON.stringify(spec.onlyEvents) : null],
    ['exclude_events', spec.excludeEvents.length ? JSON.stringify(spec.excludeEvents) : null],
    ...spec.options,
  ]
    .filter((pair): pair is [string, string] => typeof pair[1] === 'string')
    .map(([k, v]) => `&${k}=${encodeURIComponent(v)}`)
    .join('');
  return `https://acme.zulipchat.com/api/v1/external/${spec.integration}?api_key=********${query}`;
}

async function open(catalog: WebhookCatalog, local = false, extra: FakeHandlers = {}) {
  const real = { ...acmeAccount, isActive: true };
  const status = local
    ? appStatus()
    : appStatus({ activeAccountId: real.id, accounts: [demoAccount, real] });
  useFakeBackend({
    app_status: () => status,
    list_bots: () => bots,
    list_integrations: () => registry,
    webhook_catalog: () => catalog,
    preview_webhook_url: ({ request }) => previewUrl(request.spec),
    ...extra,
  });
  await app.load();
  render(BotsPage);
  return screen.findByTestId('webhook-integration');
}

function optionValues(select: HTMLElement): (string | null)[] {
  return within(select)
    .getAllByRole('option')
    .map((option) => option.getAttribute('value'));
}

describe('the URL builder over the server’s catalog', () => {
  for (const level of [318, 403]) {
    it(`offers every integration of a level-${String(level)} server with its filters and options`, async () => {
      const select = await open(realCatalog(level));
      expect(optionValues(select)).toEqual(['github', 'gitlab', 'helloworld', 'zendesk']);
      expect(within(select).getByRole('option', { name: /GitHub/ })).toHaveValue('github');

      await userEvent.selectOptions(select, 'github');
      await userEvent.click(screen.getByTestId('only-event-push'));
      await userEvent.click(screen.getByTestId('exclude-event-issues'));
      const flag = screen.getByTestId('webhook-option-ignore_private_repositories');
      expect(flag).toHaveAttribute('type', 'checkbox');
      await userEvent.click(flag);
      const branches = screen.getByTestId('webhook-option-branches');
      expect(branches).toHaveAttribute('type', 'text');
      await userEvent.type(branches, 'main');

      await waitFor(() => {
        expect(screen.getByTestId('webhook-url')).toHaveTextContent(
          '/external/github?api_key=********' +
            '&only_events=%5B%22push%22%5D&exclude_events=%5B%22issues%22%5D' +
            '&ignore_private_repositories=true&branches=main',
        );
      });
      await userEvent.click(flag);
      await waitFor(() => {
        expect(screen.getByTestId('webhook-url').textContent).not.toContain('ignore_private');
      });
      expect(screen.getByTestId('webhook-integration-no-samples')).toHaveTextContent('GitHub');
    });
  }

  it('narrows the list as one types, and arrow keys and Enter choose', async () => {
    const select = await open(realCatalog(403));
    const search = screen.getByTestId('webhook-integration-search');

    await userEvent.type(search, 'git');
    expect(optionValues(select)).toEqual(['github', 'gitlab', 'helloworld']);
    await userEvent.keyboard('{ArrowDown}');
    expect(select).toHaveValue('github');
    await userEvent.keyboard('{ArrowDown}');
    expect(select).toHaveValue('gitlab');
    await userEvent.keyboard('{ArrowUp}');
    expect(select).toHaveValue('github');

    await userEvent.clear(search);
    await userEvent.type(search, 'zen{Enter}');
    expect(select).toHaveValue('zendesk');
    await waitFor(() => {
      expect(screen.getByTestId('webhook-url')).toHaveTextContent('/external/zendesk?');
    });
    await userEvent.keyboard('{Escape}');
    expect(search).toHaveValue('');
    expect(optionValues(select)).toHaveLength(4);
  });

  it('works with a server that sends no catalog: Weir’s list, and any typed name', async () => {
    const select = await open({ featureLevel: 150, integrations: null });
    expect(screen.getByTestId('webhook-catalog-missing')).toHaveTextContent('feature level 150');
    expect(optionValues(select)).toEqual(['helloworld']);

    await userEvent.type(screen.getByTestId('webhook-integration-name'), 'Travis{Enter}');
    await userEvent.tab();
    await waitFor(() => {
      expect(screen.getByTestId('webhook-url')).toHaveTextContent('/external/travis?');
    });
    expect(select).toHaveValue('travis');
    expect(screen.queryByTestId('webhook-integration-missing')).toBeNull();
  });

  it('says a typed name the server does not list will be refused', async () => {
    await open(realCatalog(403));
    await userEvent.type(screen.getByTestId('webhook-integration-name'), 'nosuch');
    await userEvent.tab();
    expect(await screen.findByTestId('webhook-integration-missing')).toHaveTextContent('nosuch');
  });

  it('on the local server, names an integration it lacks before anything is sent', async () => {
    const localCatalog = {
      featureLevel: 362,
      integrations: [realCatalog(362).integrations?.[0]].filter((item) => item !== undefined),
    };
    await open(localCatalog, true);
    await userEvent.type(screen.getByTestId('webhook-integration-name'), 'github');
    await userEvent.tab();
    const notice = await screen.findByTestId('webhook-integration-missing');
    expect(notice).toHaveTextContent('The local server has no “github” integration');
    expect(notice).toHaveTextContent('real Zulip server');
  });
});
