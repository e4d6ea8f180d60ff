/**
 * A fake backend for `npm run dev` in a plain browser (no Tauri). Only `main.ts` imports it,
 * behind `import.meta.env.DEV`, so production builds do not contain it.
 *
 * Memberships (grid, plan, apply, history, undo) come from `dev-memberships.ts`, channel
 * settings from `dev-channels.ts`; CSV
 * export and import need the app.
 *
 * `?scenario=` picks a state to look at: `no-account`, `keyring-unavailable`,
 * `overview-error`, `no-bots`, `stopped`. In the Add account form the API key `bad` is
 * rejected, a site like `https:/host` is malformed; a zuliprc path containing `bad` is not a
 * valid file.
 */
import type { AccountSummary } from './bindings/AccountSummary';
import type { BotSummary } from './bindings/BotSummary';
import type { LocalServerStatus } from './bindings/LocalServerStatus';
import type { OrganizationOverview } from './bindings/OrganizationOverview';
import type { RequestLogEntry } from './bindings/RequestLogEntry';
import type { Role } from './bindings/Role';
import type { UserSummary } from './bindings/UserSummary';
import { devChannels } from './dev-channels';
import { devMemberships, type DevStream } from './dev-memberships';
import { fakeBackend, type Backend, type IpcErrorCode, type IpcError } from './ipc';

const PEOPLE: [string, string, Role][] = [
  ['Ada Lovelace', 'ada', 'owner'],
  ['Grace Hopper', 'grace', 'owner'],
  ['Alan Turing', 'alan', 'administrator'],
  ['Katherine Johnson', 'katherine', 'administrator'],
  ['Edsger Dijkstra', 'edsger', 'administrator'],
  ['Barbara Liskov', 'barbara', 'moderator'],
  ['Donald Knuth', 'donald', 'moderator'],
  ['Margaret Hamilton', 'margaret', 'moderator'],
  ['Claude Shannon', 'claude', 'member'],
  ['Frances Allen', 'frances', 'member'],
  ['John McCarthy', 'john', 'member'],
  ['Radia Perlman', 'radia', 'member'],
  ['Ken Thompson', 'ken', 'member'],
  ['Hedy Lamarr', 'hedy', 'member'],
  ['Dennis Ritchie', 'dennis', 'member'],
  ['Adele Goldberg', 'adele', 'member'],
  ['Niklaus Wirth', 'niklaus', 'member'],
  ['Shafi Goldwasser', 'shafi', 'member'],
  ['Tony Hoare', 'tony', 'member'],
  ['Annie Easley', 'annie', 'member'],
  ['Leslie Lamport', 'leslie', 'member'],
  ['Mary Kenneth Keller', 'mary', 'member'],
  ['Bjarne Stroustrup', 'bjarne', 'member'],
  ['Evelyn Boyd Granville', 'evelyn', 'member'],
  ['Guido van Rossum', 'guido', 'guest'],
  ['Jean Sammet', 'jean', 'guest'],
  ['Tim Berners-Lee', 'tim', 'guest'],
  ['Sophie Wilson', 'sophie', 'member'],
];

const BOTS: BotSummary[] = [
  {
    userId: 101,
    fullName: 'Deploy notices',
    email: 'deploy-bot@lumen.test',
    botType: 'incoming_webhook',
    isActive: true,
  },
  {
    userId: 102,
    fullName: 'GitHub',
    email: 'github-bot@lumen.test',
    botType: 'incoming_webhook',
    isActive: true,
  },
  {
    userId: 103,
    fullName: 'Standup helper',
    email: 'standup-bot@lumen.test',
    botType: 'generic',
    isActive: true,
  },
  {
    userId: 104,
    fullName: 'Triage',
    email: 'triage-bot@lumen.test',
    botType: 'outgoing_webhook',
    isActive: true,
  },
  {
    userId: 105,
    fullName: 'Old alerts',
    email: 'alerts-bot@lumen.test',
    botType: 'incoming_webhook',
    isActive: false,
  },
  {
    userId: 106,
    fullName: 'Welcome',
    email: 'welcome-bot@lumen.test',
    botType: 'embedded',
    isActive: true,
  },
];

/** The ids of the first `count` people: a plausible subscriber set. */
function firstUsers(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1);
}

const STREAMS: DevStream[] = [
  {
    streamId: 1,
    name: 'general',
    inviteOnly: false,
    subscribers: firstUsers(28),
  },
  {
    streamId: 2,
    name: 'announcements',
    inviteOnly: false,
    subscribers: firstUsers(28),
  },
  {
    streamId: 3,
    name: 'engineering',
    inviteOnly: false,
    subscribers: firstUsers(14),
  },
  {
    streamId: 4,
    name: 'design',
    inviteOnly: false,
    subscribers: firstUsers(9),
  },
  {
    streamId: 5,
    name: 'leadership',
    inviteOnly: true,
    subscribers: firstUsers(5),
  },
  {
    streamId: 6,
    name: 'support',
    inviteOnly: false,
    subscribers: firstUsers(11),
  },
  {
    streamId: 7,
    name: 'deploys',
    inviteOnly: false,
    subscribers: firstUsers(12),
  },
  {
    streamId: 8,
    name: 'security',
    inviteOnly: true,
    subscribers: firstUsers(4),
  },
  {
    streamId: 9,
    name: 'random',
    inviteOnly: false,
    subscribers: firstUsers(21),
  },
];

function users(): UserSummary[] {
  const people = PEOPLE.map(([fullName, name, role], index) => ({
    userId: index + 1,
    fullName,
    email: `${name}@lumen.test`,
    role,
    isBot: false,
    botType: null,
    isActive: name !== 'tim',
  }));
  const bots = BOTS.map((bot) => ({
    userId: bot.userId,
    fullName: bot.fullName,
    email: bot.email,
    role: 'member' as const,
    isBot: true,
    botType: bot.botType,
    isActive: bot.isActive,
  }));
  return [...people, ...bots];
}

const ROUTES: [string, string][] = [
  ['GET', '/api/v1/users'],
  ['GET', '/api/v1/streams'],
  ['GET', '/api/v1/users/me'],
  ['GET', '/api/v1/users/me/subscriptions?include_subscribers=true'],
  ['GET', '/api/v1/bots'],
  ['GET', '/api/v1/server_settings'],
  ['POST', '/api/v1/external/github?api_key=••••&stream=deploys'],
  ['POST', '/api/v1/users/me/subscriptions'],
  ['GET', '/api/v1/messages?anchor=newest&num_before=1&num_after=0'],
];

export function createDevBackend(params: URLSearchParams): Backend {
  const scenario = params.get('scenario') ?? '';
  const demo: AccountSummary = {
    id: 1,
    label: 'Lumen Labs',
    site: 'http://127.0.0.1:43817',
    email: 'ada@lumen.test',
    isDemo: true,
    isActive: true,
  };
  let accounts: AccountSummary[] =
    scenario === 'no-account'
      ? []
      : [
          demo,
          {
            id: 2,
            label: 'Acme Corp',
            site: 'https://acme.zulipchat.com',
            email: 'ops@acme.example',
            isDemo: false,
            isActive: false,
          },
        ];
  let activeId: number | null = accounts.length > 0 ? 1 : null;
  let nextAccountId = 3;
  const startedAt = Date.now() - 7 * 60 * 1000;
  let requests: RequestLogEntry[] = [];
  let nextRequestId = 1;

  function log(method: string, path: string, status = 200): void {
    requests.push({
      id: nextRequestId++,
      method,
      path,
      status,
      durationMs: Math.round((0.4 + Math.random() * 18) * 10) / 10,
      at: Date.now(),
    });
    if (requests.length > 200) requests = requests.slice(-200);
  }

  // Some history, oldest first.
  for (let i = 0; i < 14; i++) {
    const [method, path] = ROUTES[i % ROUTES.length] ?? ['GET', '/api/v1/users'];
    log(method, path, i === 6 ? 401 : 200);
    const entry = requests[requests.length - 1];
    if (entry) entry.at = Date.now() - (14 - i) * 4000;
  }

  let stopped = scenario === 'stopped';
  const status = (): LocalServerStatus => ({
    running: !stopped,
    url: stopped ? null : 'http://127.0.0.1:43817',
    dataDir: '/home/ada/.local/share/weir/server',
    startedAt: stopped ? null : startedAt,
    requests: [...requests],
  });

  const summaries = (): AccountSummary[] =>
    accounts.map((a) => ({ ...a, isActive: a.id === activeId }));

  const fail = (code: IpcErrorCode, message: string): IpcError => ({ code, message });

  const delay = <T>(value: T, ms = 250): Promise<T> =>
    new Promise((resolve) =>
      setTimeout(() => {
        resolve(value);
      }, ms),
    );

  return fakeBackend({
    ...devMemberships(users, STREAMS, (ms) => delay(undefined, ms)),
    ...devChannels(
      STREAMS.map((s) => ({
        streamId: s.streamId,
        name: s.name,
        description: `What #${s.name} is for.`,
        inviteOnly: s.inviteOnly,
      })),
      { wait: (ms) => delay(undefined, ms) },
    ),
    app_status: () => ({
      activeAccountId: activeId,
      accounts: summaries(),
      localServer: status(),
      keyring:
        scenario === 'keyring-unavailable'
          ? {
              available: false,
              message:
                'No Secret Service is running. Install and unlock gnome-keyring (or KeePassXC with Secret Service enabled), then restart Weir.',
            }
          : { available: true, message: null },
      homeDir: '/home/dev',
    }),
    list_accounts: () => summaries(),
    add_account: async ({ request }) => {
      await delay(null, 400);
      if (request.apiKey === 'bad') throw fail('unauthorized', 'Invalid API key');
      // Like the backend: a mistyped scheme (`https:/host`, `http//host`) is malformed.
      if (/^https?(?!:\/\/)[:/]/i.test(request.site.trim())) {
        throw fail(
          'invalid_site',
          `invalid site '${request.site}': the scheme must be followed by "://"`,
        );
      }
      const account: AccountSummary = {
        id: nextAccountId++,
        label: new URL(request.site).host,
        site: request.site,
        email: request.email,
        isDemo: false,
        isActive: true,
      };
      accounts = [...accounts, account];
      activeId = account.id;
      return account;
    },
    import_zuliprc: async ({ request }) => {
      await delay(null, 300);
      if (request.path.includes('bad')) {
        throw fail('invalid_zuliprc', 'it has no API key (a "key = …" line in the [api] section)');
      }
      if (request.path.includes('missing')) {
        throw fail('zuliprc_unreadable', `there is no file at ${request.path}`);
      }
      const account: AccountSummary = {
        id: nextAccountId++,
        label: 'Imported org',
        site: 'https://imported.zulipchat.com',
        email: 'me@imported.example',
        isDemo: false,
        isActive: true,
      };
      accounts = [...accounts, account];
      activeId = account.id;
      return { account, path: request.path, canDeleteFile: true };
    },
    delete_zuliprc: () => null,
    switch_account: ({ request }) => {
      const account = accounts.find((a) => a.id === request.id);
      if (!account) throw fail('not_found', `no account with id ${request.id}`);
      activeId = account.id;
      return { ...account, isActive: true };
    },
    remove_account: ({ request }) => {
      accounts = accounts.filter((a) => a.id !== request.id);
      if (activeId === request.id) activeId = accounts[0]?.id ?? null;
      return null;
    },
    organization_overview: async () => {
      await delay(null);
      if (scenario === 'overview-error') {
        throw fail('network', 'connection refused (os error 111)');
      }
      log('GET', '/api/v1/users/me');
      const me = users()[0];
      if (!me) throw fail('internal', 'no users');
      const overview: OrganizationOverview = {
        realmName: activeId === 1 ? 'Lumen Labs' : 'Acme Corp',
        realmUrl: activeId === 1 ? 'http://lumen.localhost' : 'https://acme.zulipchat.com',
        zulipVersion: '10.0',
        featureLevel: 362,
        me,
      };
      return overview;
    },
    list_bots: async () => {
      await delay(null, 200);
      log('GET', '/api/v1/bots');
      return scenario === 'no-bots' ? [] : BOTS;
    },
    local_server_status: () => {
      if (!stopped && Math.random() < 0.5) {
        const [method, path] = ROUTES[Math.floor(Math.random() * ROUTES.length)] ?? ['GET', '/'];
        log(method, path);
      }
      return status();
    },
    local_server_updates: ({ request }) => {
      if (!stopped && Math.random() < 0.5) {
        const [method, path] = ROUTES[Math.floor(Math.random() * ROUTES.length)] ?? ['GET', '/'];
        log(method, path);
      }
      const all = status();
      return { ...all, requests: all.requests.filter((entry) => entry.id > request.sinceId) };
    },
    start_local_server: async () => {
      await delay(null, 400);
      stopped = false;
      return status();
    },
    reset_demo_data: async () => {
      await delay(null, 600);
      requests = [];
      log('POST', '/weir/reset');
      return status();
    },
    open_external: ({ url }) => {
      window.open(url, '_blank', 'noopener');
      return null;
    },
    report_startup: () => null,
  });
}
