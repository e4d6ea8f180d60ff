import { untrack } from 'svelte';
import type { BotSummary } from '../../lib/bindings/BotSummary';
import type { WebhookSendRequest } from '../../lib/bindings/WebhookSendRequest';
import type { WebhookUrlSpec } from '../../lib/bindings/WebhookUrlSpec';
import { ipc, toIpcError, type IpcError } from '../../lib/ipc';
import type { HistoryEntry } from '../../lib/stores/workbench.svelte';
import type { IntegrationChoice } from './catalog';

/**
 * What the workbench sends: the sender, the webhook URL's parts (integration, stream,
 * topic, event filters, options) and the payload (fixture, headers, body). Sending it is
 * `WebhookSender`'s.
 */
export class WebhookForm {
  botId = $state<number | null>(null);
  integrationName = $state('helloworld');
  fixtureName = $state('');
  stream = $state('');
  topic = $state('');
  onlyEvents = $state<string[]>([]);
  excludeEvents = $state<string[]>([]);
  options = $state<Record<string, string>>({});
  headers = $state<[string, string][]>([]);
  body = $state('');
  /** The URL for `spec`, its key masked (`followUrl`). */
  maskedUrl = $state('');
  urlError = $state<IpcError | null>(null);

  readonly #integrations: () => IntegrationChoice[];

  /** `integrations`: the list the workbench knows, as it is now. */
  constructor(integrations: () => IntegrationChoice[]) {
    this.#integrations = integrations;
  }

  integration: IntegrationChoice | null = $derived.by(
    () => this.#integrations().find((i) => i.name === this.integrationName) ?? null,
  );
  fixtures = $derived(this.integration?.fixtures ?? []);

  spec: WebhookUrlSpec = $derived({
    integration: this.integrationName.trim(),
    stream: this.stream.trim() === '' ? null : this.stream.trim(),
    topic: this.topic.trim() === '' ? null : this.topic.trim(),
    onlyEvents: this.onlyEvents,
    excludeEvents: this.excludeEvents,
    options: Object.entries(this.options).filter(([, value]) => value !== ''),
  });

  /** Default sender: the first active incoming-webhook bot, else any active bot. */
  keepSender(senders: BotSummary[]): void {
    const current = this.botId;
    if (current !== null && senders.some((bot) => bot.userId === current)) return;
    this.botId =
      (senders.find((bot) => bot.botType === 'incoming_webhook') ?? senders[0])?.userId ?? null;
  }

  /** The first integration list starts the form from its first fixture; from the list's
   *  first integration when the server does not list the default one. */
  start(): void {
    const list = this.#integrations();
    if (list.length > 0 && this.fixtureName === '' && this.body === '') {
      untrack(() => {
        const name = this.integrationName;
        const listed = list.some((choice) => choice.name === name);
        this.selectIntegration(listed ? name : (list[0]?.name ?? name));
      });
    }
  }

  /**
   * Asks for the masked URL of the current `spec` (building it needs no key and remembers
   * nothing); returns what drops the answer, for an effect that follows the form.
   */
  followUrl(): () => void {
    const current = this.spec;
    let stale = false;
    ipc
      .previewWebhookUrl({ spec: current })
      .then((url) => {
        if (stale) return;
        this.maskedUrl = url;
        this.urlError = null;
      })
      .catch((e: unknown) => {
        if (stale) return;
        this.maskedUrl = '';
        this.urlError = toIpcError(e);
      });
    return () => {
      stale = true;
    };
  }

  /** A new integration starts from its first fixture, without filters or options. */
  selectIntegration(name: string): void {
    this.integrationName = name;
    this.onlyEvents = [];
    this.excludeEvents = [];
    this.options = {};
    const first = this.#integrations().find((i) => i.name === name)?.fixtures[0];
    if (first) this.loadFixture(first.name, name);
  }

  loadFixture(name: string, integrationOf = this.integrationName): void {
    this.fixtureName = name;
    const fixture = this.#integrations()
      .find((i) => i.name === integrationOf)
      ?.fixtures.find((f) => f.name === name);
    if (!fixture) return;
    this.body = fixture.body;
    this.headers = fixture.headers.map(([n, v]): [string, string] => [n, v]);
  }

  setOption(key: string, value: string): void {
    this.options = { ...this.options, [key]: value };
  }

  /** A boolean option: `true` in the URL when checked, left out when not (Zulip's
   *  `check_bool` reads a missing option as false). */
  setFlag(key: string, on: boolean): void {
    this.setOption(key, on ? 'true' : '');
  }

  /** The request to send, with `overrides`; `null` without a bot to send as. */
  request(overrides: Partial<WebhookSendRequest> = {}): WebhookSendRequest | null {
    if (this.botId === null) return null;
    return {
      botUserId: this.botId,
      spec: this.spec,
      headers: this.headers,
      body: this.body,
      ...overrides,
    };
  }

  /** Back to a request sent earlier, to edit it. */
  edit(entry: HistoryEntry): void {
    const req = entry.request;
    this.botId = req.botUserId;
    this.integrationName = req.spec.integration;
    this.stream = req.spec.stream ?? '';
    this.topic = req.spec.topic ?? '';
    this.onlyEvents = [...req.spec.onlyEvents];
    this.excludeEvents = [...req.spec.excludeEvents];
    this.options = Object.fromEntries(req.spec.options);
    this.headers = req.headers.map(([n, v]): [string, string] => [n, v]);
    this.body = req.body;
    this.fixtureName = entry.fixture ?? '';
  }
}
