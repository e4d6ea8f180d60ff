/**
 * Zulip's `<time:…>` markup, shown as a local date and time.
 *
 * The server stores `<time datetime="2020-08-06T04:30:00Z">1596688200</time>` and
 * Zulip's web app replaces the text with the reader's local rendering of that moment;
 * Weir does the same. A `datetime` that is not a valid date leaves the text as it is.
 */

const FORMAT: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

/** The moment a `datetime` attribute names, or `null`. */
export function timestampOf(datetime: string): Date | null {
  const moment = new Date(datetime);
  return Number.isNaN(moment.getTime()) ? null : moment;
}

/** Replaces the text of every `<time datetime>` under `root` with the local time. */
export function showTimestamps(root: ParentNode, locale?: string): void {
  for (const element of root.querySelectorAll('time[datetime]')) {
    const moment = timestampOf(element.getAttribute('datetime') ?? '');
    if (moment === null) continue;
    element.textContent = moment.toLocaleString(locale, FORMAT);
  }
}
