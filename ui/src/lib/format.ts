/** Names and formats shared by pages. */

export const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest'] as const;
export type Role = (typeof ROLES)[number];

const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  moderator: 'Moderator',
  member: 'Member',
  guest: 'Guest',
};

const ROLE_PLURALS: Record<Role, string> = {
  owner: 'Owners',
  administrator: 'Administrators',
  moderator: 'Moderators',
  member: 'Members',
  guest: 'Guests',
};

function isRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

export function roleLabel(role: string): string {
  return isRole(role) ? ROLE_LABELS[role] : role;
}

export function rolePlural(role: Role): string {
  return ROLE_PLURALS[role];
}

/** Zulip's bot types: 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded. */
export function botTypeName(botType: number | null): string {
  switch (botType) {
    case 1:
      return 'Generic';
    case 2:
      return 'Incoming webhook';
    case 3:
      return 'Outgoing webhook';
    case 4:
      return 'Embedded';
    case null:
      return 'Bot';
    default:
      return `Type ${botType}`;
  }
}

const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** Clock time of a unix-ms instant, e.g. `14:03:27`. */
export function formatTime(unixMs: number): string {
  return timeFormat.format(new Date(unixMs));
}

export function formatDateTime(unixMs: number): string {
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
