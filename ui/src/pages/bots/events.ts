import type { FixtureSummary } from '../../lib/bindings/FixtureSummary';

/**
 * For each Zulip event name, the values of the event header (`X-Event-Key: repo:push`)
 * Weir's samples send for it, in the samples' order and without repeats: what ties a
 * sample and its header to the filter's label.
 */
export function headerValuesByEvent(
  fixtures: FixtureSummary[],
  header: string | null,
): Map<string, string[]> {
  const byEvent = new Map<string, string[]>();
  if (header === null) return byEvent;
  const wanted = header.toLowerCase();
  for (const fixture of fixtures) {
    if (fixture.event === null) continue;
    const value = fixture.headers.find(([name]) => name.toLowerCase() === wanted)?.[1];
    if (value === undefined) continue;
    const values = byEvent.get(fixture.event) ?? [];
    if (!values.includes(value)) values.push(value);
    byEvent.set(fixture.event, values);
  }
  return byEvent;
}

/** A sample's label in the fixture list: its name, and Zulip's event name when that
 *  differs (the name the event filters use). */
export function fixtureLabel(fixture: FixtureSummary): string {
  return fixture.event === null || fixture.event === fixture.name
    ? fixture.name
    : `${fixture.name} (event ${fixture.event})`;
}

/**
 * `text` cut after each `_`, `:`, `.`, `/` and `-`: where an event name or header value
 * may wrap (`<wbr>` between the pieces), so that a narrow column breaks
 * `change_commit_status` between its words, never inside one.
 */
export function wrapPoints(text: string): string[] {
  const pieces = text.match(/[^_:./-]*(?:[_:./-]+|$)/g)?.filter((piece) => piece !== '') ?? [];
  return pieces.length > 0 ? pieces : [text];
}
