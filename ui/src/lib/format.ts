/** Names and formats shared by pages. */
import type { BotType } from './bindings/BotType';
import type { Role } from './bindings/Role';

export type { BotType, Role };

/** Singular and plural of each role; the type makes the table complete. */
const ROLE_NAMES: Record<Role, { one: string; many: string }> = {
  owner: { one: 'Owner', many: 'Owners' },
  administrator: { one: 'Administrator', many: 'Administrators' },
  moderator: { one: 'Moderator', many: 'Moderators' },
  member: { one: 'Member', many: 'Members' },
  guest: { one: 'Guest', many: 'Guests' },
};

/** Every role, most powerful first. */
export const ROLES = Object.keys(ROLE_NAMES) as Role[];

export function roleLabel(role: Role): string {
  return ROLE_NAMES[role].one;
}

export function rolePlural(role: Role): string {
  return ROLE_NAMES[role].many;
}

/** Zulip's bot types by name; `null` for a user record that names no type. */
export function botTypeName(botType: BotType | null): string {
  switch (botType) {
    case 'generic':
      return 'Generic';
    case 'incoming_webhook':
      return 'Incoming webhook';
    case 'outgoing_webhook':
      return 'Outgoing webhook';
    case 'embedded':
      return 'Embedded';
    case null:
      return 'Bot';
  }
}

// Built on first use: each `Intl` formatter costs WebKit several milliseconds to create
// (ICU loads its locale data), and the first page shows no times.
let timeFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** Clock time of a unix-ms instant, e.g. `14:03:27`. */
export function formatTime(unixMs: number): string {
  timeFormat ??= new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  return timeFormat.format(new Date(unixMs));
}

export function formatDateTime(unixMs: number): string {
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return dateTimeFormat.format(new Date(unixMs));
}

export function formatDuration(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : Math.round(ms).toString();
}

/** Host (and port) of a URL, or the text itself when it is not one. */
export function siteHost(site: string): string {
  try {
    return new URL(site).host;
  } catch {
    return site;
  }
}
