import type { CatalogOption } from '../../lib/bindings/CatalogOption';
import type { FixtureSummary } from '../../lib/bindings/FixtureSummary';
import type { IntegrationSummary } from '../../lib/bindings/IntegrationSummary';
import type { WebhookCatalog } from '../../lib/bindings/WebhookCatalog';
import { compareNames } from '../../lib/collate';

/**
 * One integration the URL builder offers: what the connected server says of it (its
 * `register` catalog, read by weir-core from whichever shape the server's level sends),
 * with Weir's own samples when Weir's registry has the integration too.
 */
export interface IntegrationChoice {
  name: string;
  displayName: string;
  eventTypes: string[];
  urlOptions: CatalogOption[];
  /** Weir's samples for it; empty when Weir's registry lacks the integration. */
  fixtures: FixtureSummary[];
  /** Weir's registry: the header carrying the event type, and a sample that needs it. */
  eventHeader: string | null;
  needsHeaderFixture: string | null;
  /** Whether Weir's own code has it (samples, dry run, the local server). */
  inRegistry: boolean;
  /** Whether the server lists it; `null` when the server sent no catalog. */
  onServer: boolean | null;
}

/**
 * The list to offer, by display name: the server's catalog when it sent one, else Weir's
 * registry (an old server that does not list its integrations; a name can still be typed).
 */
export function integrationChoices(
  catalog: WebhookCatalog | null,
  registry: IntegrationSummary[],
): IntegrationChoice[] {
  const local = new Map(registry.map((item) => [item.name, item]));
  const listed = catalog?.integrations;
  const choices: IntegrationChoice[] = listed
    ? listed.map((item) => {
        const own = local.get(item.name);
        return {
          name: item.name,
          displayName: item.displayName,
          eventTypes: item.eventTypes,
          urlOptions: item.urlOptions,
          fixtures: own?.fixtures ?? [],
          eventHeader: own?.eventHeader ?? null,
          needsHeaderFixture: own?.needsHeaderFixture ?? null,
          inRegistry: own !== undefined,
          onServer: true,
        };
      })
    : registry.map((item) => ({
        name: item.name,
        displayName: item.displayName,
        eventTypes: item.eventTypes,
        urlOptions: item.urlOptions.map((option) => ({ ...option, kind: 'text' as const })),
        fixtures: item.fixtures,
        eventHeader: item.eventHeader,
        needsHeaderFixture: item.needsHeaderFixture,
        inRegistry: true,
        onServer: null,
      }));
  return choices.sort(
    (a, b) => compareNames(a.displayName, b.displayName) || compareNames(a.name, b.name),
  );
}

/** Lower case without accents, for matching what is typed. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The choices whose display name or name contains `query` (case and accents ignored),
 * those whose display name starts with it first; all of them for a blank query.
 */
export function filterChoices(choices: IntegrationChoice[], query: string): IntegrationChoice[] {
  const wanted = folded(query.trim());
  if (wanted === '') return choices;
  const starts: IntegrationChoice[] = [];
  const contains: IntegrationChoice[] = [];
  for (const choice of choices) {
    const display = folded(choice.displayName);
    if (display.startsWith(wanted) || folded(choice.name).startsWith(wanted)) {
      starts.push(choice);
    } else if (display.includes(wanted) || folded(choice.name).includes(wanted)) {
      contains.push(choice);
    }
  }
  return [...starts, ...contains];
}

/**
 * The name `delta` steps from `current` in `choices` (arrow keys in the filter box),
 * stopping at either end; from a name not in the list, down is the first and up the last.
 */
export function stepChoice(
  choices: IntegrationChoice[],
  current: string,
  delta: number,
): string | null {
  if (choices.length === 0) return null;
  const at = choices.findIndex((choice) => choice.name === current);
  if (at < 0) return (delta > 0 ? choices[0] : choices[choices.length - 1])?.name ?? null;
  const next = Math.min(Math.max(at + delta, 0), choices.length - 1);
  return choices[next]?.name ?? null;
}

/** What an option is called in the form: Zulip's label, or its key when that is empty. */
export function optionLabel(option: CatalogOption): string {
  return option.label.trim() === '' ? option.key : option.label;
}
