import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BotSummary } from '../lib/bindings/BotSummary';
import type { ChannelSummary } from '../lib/bindings/ChannelSummary';
import type { IntegrationSummary } from '../lib/bindings/IntegrationSummary';
import type { WebhookCatalog } from '../lib/bindings/WebhookCatalog';
import type { WebhookSendRequest } from '../lib/bindings/WebhookSendRequest';
import type { FakeHandlers } from '../lib/ipc';
import { app } from '../lib/stores/app.svelte';
import { useFakeBackend } from '../test/backend';
import { acmeAccount, appStatus, bots, demoAccount, ipcError } from '../test/fixtures';
import BotsPage from './BotsPage.svelte';

const KEY = 'abcdefghijklmnopqrstuvwxyz012345';
const HELLO = '{"featured_title": "Tea", "featured_url": "https://en.wikipedia.org/wiki/Tea"}';

const integrations: IntegrationSummary[] = [
  {
    name: 'helloworld',
    displayName: 'Hello World',
    eventTypes: [],
    eventHeader: null,
    needsHeaderFixture: null,
    urlOptions: [],
    fixtures: [{ name: 'hello', body: HELLO, headers: [], event: null }],
  },
  {
    name: 'bitbucket2',
    displayName: 'Bitbucket',
    eventTypes: ['push', 'pull_request_created'],
    eventHeader: 'X-Event-Key',
    needsHeaderFixture: 'fork',
    urlOptions: [{ key: 'branches', label: 'branches' }],
    fixtures: [
      {
        name: 'push',
        body: '{"push": {}}',
        headers: [['X-Event-Key', 'repo:push']],
        event: 'push',
      },
      {
        name: 'fork',
        body: '{"fork": {}}',
        headers: [['X-Event-Key', 'repo:fork']],
        event: 'fork',
      },
    ],
  },
];

const channels: ChannelSummary[] = [
  { streamId: 4, name: 'general', inviteOnly: false },
  { streamId: 9, name: 'Secret Plans', inviteOnly: true },
];

/** The local server's catalog, as weir-core reads its `register` (level 362). */
const localCatalog: WebhookCatalog = {
  featureLevel: 362,
  integrations: integrations.map((item) => ({
    name: item.name,
    displayName: item.displayName,
    eventTypes: item.eventTypes,
    urlOptions: item.urlOptions.map((option) => ({ ...option, kind: 'text' })),
  })),
};

function sent(status = 200) {
  return {
    status,
    noMessage: null,
    response: '{"result":"success","msg":""}',
    messages: [
      {
        id: 41,
        senderFullName: 'Deploy notices',
        senderEmail: 'deploy-bot@lumen.test',
        isNotification: false,
        stream: 'general',
        topic: 'Hello World',
        recipients: [],
        contentHtml:
          '<p>Hello! <strong><a href="https://en.wikipedia.org/wiki/Tea">Tea</a></strong></p>',
      },
    ],
  };
}

function handlers(overrides: FakeHandlers = {}): FakeHandlers {
  return {
    app_status: () => appStatus(),
    list_bots: () => bots,
    list_integrations: () => integrations,
    webhook_catalog: () => localCatalog,
    preview_webhook_url: ({ request }) =>
      `http://127.0.0.1:40001/api/v1/external/${request.spec.integration}?api_key=********` +
      (request.spec.stream ? `&stream=${encodeURIComponent(request.spec.stream)}` : ''),
    send_webhook: () => sent(),
    list_webhook_channels: () => channels,
    ...overrides,
  };
}

async function open(overrides: FakeHandlers = {}, status = appStatus()) {
  const backend = useFakeBackend(handlers({ app_status: () => status, ...overrides }));
  await app.load();
  render(BotsPage);
  await screen.findByTestId('bot-101');
  return backend;
}

describe('BotsPage: bots and keys', () => {
  it('lists each bot with its key masked, and Reveal shows it from the keyring', async () => {
    const backend = await open({ reveal_bot_key: () => KEY });
    const row = screen.getByTestId('bot-101');
    const key = within(row).getByTestId('bot-key');
    expect(key.textContent).not.toContain(KEY);
    expect(screen.getByTestId('bot-103')).toHaveTextContent('Deactivated');

    await userEvent.click(within(row).getByTestId('reveal-key'));

    await waitFor(() => {
      expect(key).toHaveTextContent(KEY);
    });
    expect(backend.calls).toContainEqual(['reveal_bot_key', { request: { userId: 101 } }]);
    await userEvent.click(within(row).getByTestId('reveal-key'));
    expect(key.textContent).not.toContain(KEY);
  });

  it('copies a key through the backend and says when the clipboard is cleared', async () => {
    const backend = await open({ copy_bot_key: () => 30 });
    await userEvent.click(within(screen.getByTestId('bot-101')).getByTestId('copy-key'));
    // Beside the button, in the bot's own row.
    expect(
      await within(screen.getByTestId('bot-101')).findByTestId('bot-notice'),
    ).toHaveTextContent('clears the clipboard in 30');
    expect(backend.calls).toContainEqual(['copy_bot_key', { request: { userId: 101 } }]);
  });

  it('creates an incoming-webhook bot and lists it at once', async () => {
    let list = bots;
    const created: BotSummary = {
      userId: 120,
      fullName: 'Build',
      email: 'build-bot@lumen.test',
      botType: 'incoming_webhook',
      isActive: true,
    };
    const backend = await open({
      list_bots: () => list,
      create_bot: () => {
        list = [...bots, created];
        return created;
      },
    });

    await userEvent.type(screen.getByTestId('bot-full-name'), 'Build');
    await userEvent.clear(screen.getByTestId('bot-short-name'));
    await userEvent.type(screen.getByTestId('bot-short-name'), 'build');
    await userEvent.click(screen.getByTestId('create-bot'));

    expect(await screen.findByTestId('bot-120')).toHaveTextContent('Build');
    expect(backend.calls).toContainEqual([
      'create_bot',
      { request: { fullName: 'Build', shortName: 'build' } },
    ]);
  });

  it('regenerates a key after a confirmation and lists the URLs to paste again', async () => {
    const remembered = {
      id: 7,
      botUserId: 101,
      spec: {
        integration: 'helloworld',
        stream: 'general',
        topic: null,
        onlyEvents: [],
        excludeEvents: [],
        options: [],
      },
      masked: 'http://127.0.0.1:40001/api/v1/external/helloworld?api_key=********&stream=general',
      lastBuiltAt: 1_700_000_000,
    };
    const backend = await open({
      regenerate_bot_key: () => [remembered],
      copy_remembered_url: () => 30,
    });

    await userEvent.click(within(screen.getByTestId('bot-101')).getByTestId('regenerate-key'));
    expect(backend.calls.map(([name]) => name)).not.toContain('regenerate_bot_key');
    const dialog = await screen.findByTestId('bot-action-dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Regenerate key' }));

    const rotation = await screen.findByTestId('rotation-list');
    expect(within(rotation).getByTestId('rotation-url')).toHaveTextContent(remembered.masked);
    await userEvent.click(within(rotation).getByRole('button', { name: 'Copy with new key' }));
    expect(backend.calls).toContainEqual(['copy_remembered_url', { request: { id: 7 } }]);
  });
});

describe('BotsPage: webhook workbench', () => {
  it('offers active bots by user id and integrations by name, and shows the masked URL', async () => {
    await open();
    const botSelect = await screen.findByTestId('webhook-bot');
    const ids = within(botSelect)
      .getAllByRole('option')
      .map((option) => option.getAttribute('value'));
    expect(ids).toEqual(['101', '102', '104']);
    const names = within(screen.getByTestId('webhook-integration'))
      .getAllByRole('option')
      .map((option) => option.getAttribute('value'));
    // By display name: Bitbucket, Hello World.
    expect(names).toEqual(['bitbucket2', 'helloworld']);

    await userEvent.type(screen.getByTestId('webhook-stream'), 'R&D #1');
    await waitFor(() => {
      expect(screen.getByTestId('webhook-url')).toHaveTextContent('stream=R%26D%20%231');
    });
    expect(screen.getByTestId('webhook-url').textContent).toContain('api_key=********');
  });

  it('sends the body to the local server and shows the status and the message', async () => {
    const backend = await open();
    await screen.findByTestId('webhook-bot');
    await userEvent.type(screen.getByTestId('webhook-stream'), 'general');
    await userEvent.click(screen.getByTestId('send-webhook'));

    expect(await screen.findByTestId('webhook-status')).toHaveTextContent('200');
    const preview = screen.getByTestId('message-preview');
    expect(preview).toHaveTextContent('Deploy notices');
    expect(preview).toHaveTextContent('#general > Hello World');
    const [, args] = backend.calls.find(([name]) => name === 'send_webhook') ?? [];
    const request = (args as { request: WebhookSendRequest }).request;
    expect(request.botUserId).toBe(101);
    expect(request.spec.stream).toBe('general');
    expect(JSON.parse(request.body)).toEqual(JSON.parse(HELLO));
  });

  it('asks once per session before sending to a real organization', async () => {
    const real = { ...acmeAccount, isActive: true };
    const backend = await open(
      {},
      appStatus({ activeAccountId: real.id, accounts: [demoAccount, real] }),
    );
    await screen.findByTestId('webhook-bot');
    expect(screen.getByTestId('webhook-target')).toHaveTextContent(real.site);

    await userEvent.click(screen.getByTestId('send-webhook'));
    const dialog = await screen.findByTestId('real-target-dialog');
    expect(backend.calls.map(([name]) => name)).not.toContain('send_webhook');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send real messages' }));
    await screen.findByTestId('webhook-status');

    await userEvent.click(screen.getByTestId('send-webhook'));
    await waitFor(() => {
      expect(backend.calls.filter(([name]) => name === 'send_webhook')).toHaveLength(2);
    });
  });

  it('dry-runs without confirmation and shows differences from the server', async () => {
    const real = { ...acmeAccount, isActive: true };
    const backend = await open(
      {
        dry_run_webhook: () => ({
          ...sent(),
          comparisons: [{ same: false, localHtml: '<p>a</p>', serverHtml: '<p>b</p>' }],
        }),
      },
      appStatus({ activeAccountId: real.id, accounts: [demoAccount, real] }),
    );
    await screen.findByTestId('webhook-bot');
    await userEvent.click(screen.getByTestId('dry-run'));

    expect(await screen.findByTestId('webhook-status')).toHaveTextContent('200');
    expect(screen.getByTestId('real-target-dialog')).not.toHaveAttribute('open');
    expect(screen.getByTestId('render-comparison')).toHaveAttribute('data-same', 'false');
    expect(backend.calls.map(([name]) => name)).toContain('dry_run_webhook');
  });

  it('sends every fixture, and the first one without its event header', async () => {
    const backend = await open({
      send_webhook: ({ request }) =>
        request.headers.length === 0 ? { ...sent(400), messages: [] } : sent(),
    });
    await screen.findByTestId('webhook-bot');
    await userEvent.selectOptions(screen.getByTestId('webhook-integration'), 'bitbucket2');
    await userEvent.click(screen.getByTestId('send-all-fixtures'));

    await waitFor(() => {
      expect(screen.getAllByTestId('fixture-status')).toHaveLength(3);
    });
    const statuses = screen.getAllByTestId('fixture-status').map((cell) => cell.textContent);
    expect(statuses).toEqual(['200', '200', '400']);
    expect(screen.getByTestId('fixture-results')).toHaveTextContent('fork without X-Event-Key');
    expect(backend.calls.filter(([name]) => name === 'send_webhook')).toHaveLength(3);
    expect(screen.getByTestId('webhook-history')).toHaveTextContent('push');
  });

  it('shows a readable error when sending fails', async () => {
    await open({
      send_webhook: () => {
        throw ipcError('invalid_input', 'the header ’x y’ is not a valid HTTP header');
      },
    });
    await screen.findByTestId('webhook-bot');
    await userEvent.click(screen.getByTestId('send-webhook'));
    expect(await screen.findByRole('alert')).toHaveTextContent('not a valid HTTP header');
  });
});

describe('BotsPage: the workbench says what happened, where it happened', () => {
  it('suggests the channels, flags a misspelled one before sending and fixes it', async () => {
    await open();
    const stream = await screen.findByTestId('webhook-stream');
    const options = [...screen.getByTestId('webhook-stream-channels').querySelectorAll('option')];
    expect(options.map((o) => [o.value, o.textContent])).toEqual([
      ['general', 'Channel'],
      ['Secret Plans', 'Private channel'],
    ]);
    expect(stream).toHaveAttribute('list', screen.getByTestId('webhook-stream-channels').id);

    await userEvent.type(stream, 'genral');
    expect(stream).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/No such channel: “genral” is not a channel/)).toHaveTextContent(
      'at most once per five minutes',
    );
    await userEvent.click(screen.getByTestId('webhook-stream-suggestion'));
    expect(stream).toHaveValue('general');
    expect(stream).not.toHaveAttribute('aria-invalid');

    await userEvent.clear(stream);
    await userEvent.type(stream, 'secret plans');
    expect(screen.getByTestId('webhook-stream-found')).toHaveTextContent('private');
  });

  it('says why an accepted send posted nothing, instead of a green 200', async () => {
    await open({
      send_webhook: () => ({
        ...sent(),
        messages: [],
        noMessage: { kind: 'noSuchChannel', stream: 'genral', notified: false },
      }),
    });
    await userEvent.type(await screen.findByTestId('webhook-stream'), 'genral');
    await userEvent.click(screen.getByTestId('send-webhook'));

    const status = await screen.findByTestId('webhook-status');
    expect(status).toHaveTextContent('200');
    expect(status).not.toHaveClass('ok');
    expect(screen.getByTestId('no-message-reason')).toHaveTextContent(
      'notice to the bot’s owner was suppressed',
    );
    // The send's own notice sits beside the buttons.
    expect(screen.getByTestId('send-notice')).toHaveTextContent('Sent: HTTP 200, no message');
  });

  it('names the filter that left an event out', async () => {
    await open({
      dry_run_webhook: () => ({
        ...sent(),
        messages: [],
        comparisons: [],
        noMessage: { kind: 'filtered', event: 'push' },
      }),
    });
    await screen.findByTestId('webhook-bot');
    await userEvent.click(screen.getByTestId('dry-run'));
    expect(await screen.findByTestId('no-message-reason')).toHaveTextContent(
      'leave out the event “push”',
    );
  });

  it('renders raw Markdown with the server’s renderer', async () => {
    const backend = await open({
      render_markdown: ({ request }) =>
        `<p><strong>${request.content.replaceAll('*', '')}</strong></p>`,
    });
    await userEvent.click(await screen.findByTestId('workbench-mode-markdown'));
    expect(screen.getByTestId('workbench-mode-markdown')).toHaveAttribute('aria-pressed', 'true');
    await userEvent.type(screen.getByTestId('markdown-input'), '**Deploy**');
    await userEvent.click(screen.getByTestId('render-markdown'));

    // The server's HTML (this test DOM shows it sanitized or as text), not the Markdown.
    await waitFor(() => {
      expect(screen.getByTestId('markdown-preview')).toHaveTextContent('Deploy');
    });
    expect(screen.getByTestId('markdown-preview')).not.toHaveTextContent('**');
    expect(backend.calls).toContainEqual([
      'render_markdown',
      { request: { content: '**Deploy**' } },
    ]);
    await userEvent.click(screen.getByTestId('workbench-mode-payload'));
    expect(screen.getByTestId('send-webhook')).toBeInTheDocument();
  });

  it('labels events by Zulip’s names with the header value the samples send', async () => {
    await open();
    await screen.findByTestId('webhook-bot');
    await userEvent.selectOptions(screen.getByTestId('webhook-integration'), 'bitbucket2');
    // Exactly the value (the header is named above the table and in the title); the wrap
    // points (<wbr>) add no text.
    const value = await screen.findByTestId('event-header-push');
    expect(value.textContent).toBe('repo:push');
    expect(value).toHaveAttribute('title', 'X-Event-Key: repo:push');
    expect(value.querySelectorAll('wbr')).toHaveLength(1);
    await userEvent.click(screen.getByTestId('exclude-event-push'));
    expect(screen.getByTestId('exclude-event-push')).toBeChecked();
  });

  it('shows Copy URL’s notice beside it, and history rows say what changed', async () => {
    await open({
      copy_webhook_url: () => ({
        id: 1,
        botUserId: 101,
        spec: {
          integration: 'helloworld',
          stream: null,
          topic: null,
          onlyEvents: [],
          excludeEvents: [],
          options: [],
        },
        masked: 'http://x/?api_key=****',
        lastBuiltAt: 0,
      }),
    });
    await screen.findByTestId('webhook-bot');
    await userEvent.click(screen.getByTestId('copy-webhook-url'));
    expect(await screen.findByTestId('copy-url-notice')).toHaveTextContent('Webhook URL copied');

    const stream = screen.getByTestId('webhook-stream');
    await userEvent.type(stream, 'general');
    await userEvent.click(screen.getByTestId('send-webhook'));
    await screen.findByTestId('webhook-status');
    await userEvent.clear(stream);
    await userEvent.type(stream, 'genral');
    await userEvent.click(screen.getByTestId('send-webhook'));
    await waitFor(() => {
      expect(screen.getAllByTestId('history-changes')).toHaveLength(2);
    });
    const rows = screen.getAllByTestId('history-changes');
    expect(rows[0]).toHaveTextContent('stream “general” → “genral”');
    expect(rows[1]).toHaveTextContent('first request');
  });
});
