import { describe, expect, it } from 'vitest';
import { workbench } from '../../lib/stores/workbench.svelte';
import { commandNames, useFakeBackend } from '../../test/backend';
import { acmeAccount, bots, demoAccount } from '../../test/fixtures';
import { integrationChoices } from './catalog';
import { WebhookForm } from './webhookForm.svelte';
import { WebhookSender } from './webhookSender.svelte';

const integrations = integrationChoices(null, [
  {
    name: 'bitbucket2',
    displayName: 'Bitbucket',
    eventTypes: ['push'],
    eventHeader: 'X-Event-Key',
    needsHeaderFixture: 'fork',
    urlOptions: [],
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
]);

const sent = { status: 200, response: '{"msg":""}', messages: [], noMessage: null };

function setup(account = demoAccount) {
  const form = new WebhookForm(() => integrations);
  const notices: string[] = [];
  const sender = new WebhookSender(
    form,
    () => account,
    (message) => notices.push(message),
  );
  return { form, sender, notices };
}

describe('the webhook form', () => {
  it('starts from the first incoming-webhook bot and the integration’s first fixture', () => {
    const { form } = setup();
    form.integrationName = 'bitbucket2';
    form.keepSender(bots.filter((bot) => bot.isActive));
    form.start();
    expect(form.botId).toBe(101);
    expect(form.fixtureName).toBe('push');
    expect(form.request()).toMatchObject({
      botUserId: 101,
      spec: { integration: 'bitbucket2', stream: null, topic: null },
      body: '{"push": {}}',
      headers: [['X-Event-Key', 'repo:push']],
    });
  });

  it('starts from the list’s first integration when the server lacks the default one', () => {
    const { form } = setup();
    expect(form.integrationName).toBe('helloworld');
    form.start();
    expect(form.integrationName).toBe('bitbucket2');
    expect(form.fixtureName).toBe('push');
  });

  it('has no request without a bot, and takes a sent one back to edit', () => {
    const { form } = setup();
    expect(form.request()).toBeNull();
    form.edit({
      id: 1,
      at: 0,
      accountId: 1,
      fixture: null,
      status: 200,
      request: {
        botUserId: 101,
        spec: {
          integration: 'bitbucket2',
          stream: 'ops',
          topic: null,
          onlyEvents: ['push'],
          excludeEvents: [],
          options: [['branches', 'main']],
        },
        headers: [],
        body: '{}',
      },
    });
    expect(form.spec).toMatchObject({ stream: 'ops', onlyEvents: ['push'] });
    expect(form.options).toEqual({ branches: 'main' });
  });
});

describe('the webhook sender', () => {
  it('says why nothing was sent without a bot', () => {
    const { sender } = setup();
    sender.send();
    expect(sender.action.error?.message).toBe('Create or choose a bot to send as.');
  });

  it('sends every fixture and the missing-header case, one row each', async () => {
    const backend = useFakeBackend({ send_webhook: () => sent });
    const { form, sender } = setup();
    form.botId = 101;
    form.selectIntegration('bitbucket2');
    sender.sendAll();
    await expect.poll(() => sender.action.busy).toBe(false);
    expect(sender.fixtureRows.map((row) => [row.label, row.outcome?.status])).toEqual([
      ['push', 200],
      ['fork', 200],
      ['fork without X-Event-Key', 200],
    ]);
    expect(commandNames(backend)).toEqual(['send_webhook', 'send_webhook', 'send_webhook']);
    expect(workbench.history).toHaveLength(3);
  });

  it('waits for the confirmation before posting to a real organization, once', async () => {
    const backend = useFakeBackend({ send_webhook: () => sent });
    const { form, sender } = setup(acmeAccount);
    form.botId = 101;
    form.selectIntegration('bitbucket2');
    sender.send();
    expect(sender.waiting).not.toBeNull();
    expect(commandNames(backend)).toEqual([]);
    sender.confirm();
    await expect.poll(() => sender.outcomeSeq).toBe(1);
    sender.send();
    expect(sender.waiting).toBeNull();
    await expect.poll(() => sender.outcomeSeq).toBe(2);
    expect(commandNames(backend)).toEqual(['send_webhook', 'send_webhook']);
  });
});
