import { Action } from '../../lib/action.svelte';
import type { AccountSummary } from '../../lib/bindings/AccountSummary';
import type { WebhookSendRequest } from '../../lib/bindings/WebhookSendRequest';
import { ipc, toIpcError } from '../../lib/ipc';
import { workbench, type HistoryEntry } from '../../lib/stores/workbench.svelte';
import type { FixtureRow, Outcome } from './outcome';
import type { WebhookForm } from './webhookForm.svelte';

/**
 * Sends what the form holds: one request, a dry run, or every fixture of the integration,
 * to the active account's server (a real organization only once the user confirmed it,
 * once per session); keeps the result shown and records sends in the session's history.
 */
export class WebhookSender {
  /** Sends and dry runs, one at a time; its error is also the form's and Copy URL's. */
  readonly action = new Action();
  outcome = $state<Outcome | null>(null);
  /** Counts results, so that a repeated identical result is still a new one. */
  outcomeSeq = $state(0);
  fixtureRows = $state<FixtureRow[]>([]);
  /** The last send's or dry run's one line, shown beside the buttons that caused it. */
  said = $state<{ message: string; seq: number; tone: 'success' | 'warning' }>({
    message: '',
    seq: 0,
    tone: 'success',
  });
  /** A send waiting for the once-per-session confirmation of a real target. */
  waiting = $state<(() => Promise<unknown>) | null>(null);

  readonly #form: WebhookForm;
  readonly #account: () => AccountSummary;
  readonly #onnotice: (message: string) => void;

  constructor(
    form: WebhookForm,
    account: () => AccountSummary,
    onnotice: (message: string) => void,
  ) {
    this.#form = form;
    this.#account = account;
    this.#onnotice = onnotice;
  }

  /** The form's request, or `null` (and the reason shown) without a bot to send as. */
  #request(overrides: Partial<WebhookSendRequest> = {}): WebhookSendRequest | null {
    const req = this.#form.request(overrides);
    if (!req) {
      this.action.error = { code: 'invalid_input', message: 'Create or choose a bot to send as.' };
    }
    return req;
  }

  /** Runs `send` now, or after the user confirms posting to a real organization. */
  #guarded(send: () => Promise<unknown>): void {
    if (workbench.needsConfirmation(this.#account())) {
      this.waiting = send;
      return;
    }
    void send();
  }

  async #sendOne(req: WebhookSendRequest, fixture: string | null): Promise<Outcome> {
    const result = await ipc.sendWebhook(req);
    const accountId = this.#account().id;
    workbench.record({ accountId, fixture, request: req, status: result.status });
    return {
      kind: 'send',
      status: result.status,
      response: result.response,
      messages: result.messages,
      comparisons: [],
      noMessage: result.noMessage,
    };
  }

  /** Sends `req` (the form's by default), recorded as `fixture`'s. */
  send(
    req: WebhookSendRequest | null = this.#request(),
    fixture: string | null = this.#form.fixtureName,
  ): void {
    if (!req) return;
    this.#guarded(() =>
      this.action.run(async () => {
        const outcome = await this.#sendOne(req, fixture || null);
        this.show(outcome);
        this.#say(outcome);
      }),
    );
  }

  /** Sends the integration's first fixture with the form's URL: does the URL work? */
  test(): void {
    const first = this.#form.fixtures[0];
    if (first) this.send(this.#request({ body: first.body, headers: first.headers }), first.name);
  }

  replay(entry: HistoryEntry): void {
    this.send(entry.request, entry.fixture);
  }

  dryRun(): void {
    const req = this.#request();
    if (!req) return;
    void this.action.run(async () => {
      const result = await ipc.dryRunWebhook(req);
      const outcome: Outcome = { kind: 'dry-run', ...result };
      this.show(outcome);
      this.#say(outcome);
    });
  }

  /** Every fixture in turn, and the missing-header case, each with its own result row. */
  sendAll(): void {
    const base = this.#request();
    const integration = this.#form.integration;
    if (!base || !integration) return;
    const cases: { label: string; req: WebhookSendRequest }[] = integration.fixtures.map((f) => ({
      label: f.name,
      req: { ...base, body: f.body, headers: f.headers },
    }));
    // The missing-header case: a fixture the integration cannot read without its header.
    const needy = integration.fixtures.find((f) => f.name === integration.needsHeaderFixture);
    const header = integration.eventHeader;
    if (needy && header) {
      cases.push({
        label: `${needy.name} without ${header}`,
        req: {
          ...base,
          body: needy.body,
          headers: needy.headers.filter(([n]) => n.toLowerCase() !== header.toLowerCase()),
        },
      });
    }
    this.#guarded(() =>
      this.action.run(async () => {
        this.fixtureRows = cases.map(({ label }) => ({ label, outcome: null, error: null }));
        for (const [index, { label, req }] of cases.entries()) {
          try {
            const result = await this.#sendOne(req, label);
            this.fixtureRows[index] = { label, outcome: result, error: null };
          } catch (e) {
            this.fixtureRows[index] = { label, outcome: null, error: toIpcError(e) };
          }
        }
      }),
    );
  }

  /** Copies the URL with the bot's key in it (the backend puts it on the clipboard). */
  async copyUrl(): Promise<void> {
    const botUserId = this.#form.botId;
    if (botUserId === null) return;
    this.action.error = null;
    try {
      const remembered = await ipc.copyWebhookUrl({ botUserId, spec: this.#form.spec });
      this.#onnotice(`Webhook URL copied with the key: ${remembered.masked}`);
    } catch (e) {
      this.action.error = toIpcError(e);
    }
  }

  /** "Sent: HTTP 200, 1 message" (or "no message", as a warning). */
  #say(outcome: Outcome): void {
    const posted = outcome.messages.filter((message) => !message.isNotification).length;
    const verb = outcome.kind === 'dry-run' ? 'Dry run' : 'Sent';
    const what =
      posted === 0 ? 'no message' : posted === 1 ? '1 message' : `${String(posted)} messages`;
    const ok = outcome.status >= 200 && outcome.status < 300 && posted > 0;
    this.said = {
      message: `${verb}: HTTP ${String(outcome.status)}, ${what}`,
      seq: this.said.seq + 1,
      tone: ok ? 'success' : 'warning',
    };
  }

  show(next: Outcome): void {
    this.outcome = next;
    this.outcomeSeq++;
  }

  /** The user agreed to post to the real organization: the waiting send goes. */
  confirm(): void {
    const next = this.waiting;
    this.waiting = null;
    workbench.confirmRealTarget(this.#account().id);
    if (next) void next();
  }

  cancel(): void {
    this.waiting = null;
  }
}
