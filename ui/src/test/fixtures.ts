import type { AccountSummary } from '../lib/bindings/AccountSummary';
import type { AppStatus } from '../lib/bindings/AppStatus';
import type { BotSummary } from '../lib/bindings/BotSummary';
import type { LocalServerStatus } from '../lib/bindings/LocalServerStatus';
import type { OrganizationOverview } from '../lib/bindings/OrganizationOverview';
import type { RequestLogEntry } from '../lib/bindings/RequestLogEntry';
import type { Role } from '../lib/bindings/Role';
import type { UserSummary } from '../lib/bindings/UserSummary';
import type { IpcErrorCode, IpcError } from '../lib/ipc';

export const demoAccount: AccountSummary = {
  id: 1,
  label: 'Lumen Labs',
  site: 'http://127.0.0.1:40001',
  email: 'ada@lumen.test',
  isDemo: true,
  isActive: true,
};

export const acmeAccount: AccountSummary = {
  id: 2,
  label: 'Acme',
  site: 'https://acme.zulipchat.com',
  email: 'ops@acme.example',
  isDemo: false,
  isActive: false,
};

export function request(id: number, at: number, path = `/api/v1/r${id}`): RequestLogEntry {
  return { id, method: 'GET', path, status: 200, durationMs: 3.5, at };
}

export function localServerStatus(overrides: Partial<LocalServerStatus> = {}): LocalServerStatus {
  return {
    running: true,
    url: 'http://127.0.0.1:40001',
    dataDir: '/tmp/weir-data',
    startedAt: 1_700_000_000_000,
    requests: [],
    ...overrides,
  };
}

export function appStatus(overrides: Partial<AppStatus> = {}): AppStatus {
  return {
    activeAccountId: 1,
    accounts: [demoAccount, acmeAccount],
    localServer: localServerStatus(),
    keyring: { available: true, message: null },
    homeDir: '/home/ada',
    ...overrides,
  };
}

export function user(
  userId: number,
  fullName: string,
  role: Role,
  extra: Partial<UserSummary> = {},
): UserSummary {
  return {
    userId,
    fullName,
    email: `${fullName.split(' ')[0]?.toLowerCase() ?? 'x'}@lumen.test`,
    role,
    isBot: false,
    botType: null,
    isActive: true,
    ...extra,
  };
}

export const ada = user(1, 'Ada Lovelace', 'owner');

export function overview(overrides: Partial<OrganizationOverview> = {}): OrganizationOverview {
  return {
    realmName: 'Lumen Labs',
    realmUrl: 'http://lumen.localhost',
    zulipVersion: '10.0',
    featureLevel: 362,
    me: ada,
    ...overrides,
  };
}

export const bots: BotSummary[] = [
  {
    userId: 101,
    fullName: 'Deploy notices',
    email: 'deploy-bot@lumen.test',
    botType: 'incoming_webhook',
    isActive: true,
  },
  {
    userId: 102,
    fullName: 'Helper',
    email: 'helper-bot@lumen.test',
    botType: 'generic',
    isActive: true,
  },
  {
    userId: 103,
    fullName: 'Triage',
    email: 'triage-bot@lumen.test',
    botType: 'outgoing_webhook',
    isActive: false,
  },
  {
    userId: 104,
    fullName: 'Welcome',
    email: 'welcome-bot@lumen.test',
    botType: 'embedded',
    isActive: true,
  },
];

/** What a command rejects with; fakes throw it. */
export function ipcError(code: IpcErrorCode, message: string): IpcError {
  return { code, message };
}
