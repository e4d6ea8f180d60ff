import { describe, expect, it } from 'vitest';
import type { IntegrationSummary } from '../../lib/bindings/IntegrationSummary';
import type { WebhookCatalog } from '../../lib/bindings/WebhookCatalog';
import { filterChoices, integrationChoices, optionLabel, stepChoice } from './catalog';

const registry: IntegrationSummary[] = [
  {
    name: 'helloworld',
    displayName: 'Hello World',
    eventTypes: [],
    eventHeader: null,
    needsHeaderFixture: null,
    urlOptions: [],
    fixtures: [{ name: 'hello', body: '{}', headers: [], event: null }],
  },
  {
    name: 'github',
    displayName: 'GitHub',
    eventTypes: ['push'],
    eventHeader: 'X-GitHub-Event',
    needsHeaderFixture: null,
    urlOptions: [{ key: 'branches', label: 'branches' }],
    fixtures: [{ name: 'push', body: '{}', headers: [['X-GitHub-Event', 'push']], event: 'push' }],
  },
];

/** What weir-core reads from a server listing GitHub, Sentry and Zendesk. */
const catalog: WebhookCatalog = {
  featureLevel: 403,
  integrations: [
    {
      name: 'zendesk',
      displayName: 'Zendesk',
      eventTypes: [],
      urlOptions: [],
    },
    {
      name: 'github',
      displayName: 'GitHub',
      eventTypes: ['push', 'create'],
      urlOptions: [
        { key: 'branches', label: '', kind: 'text' },
        {
          key: 'ignore_private_repositories',
          label: 'Exclude notifications from private repositories',
          kind: 'boolean',
        },
      ],
    },
    { name: 'sentry', displayName: 'Sentry', eventTypes: [], urlOptions: [] },
  ],
};

describe('the integration list', () => {
  it('is the server’s catalog by display name, with Weir’s samples where Weir has them', () => {
    const choices = integrationChoices(catalog, registry);
    expect(choices.map((c) => c.name)).toEqual(['github', 'sentry', 'zendesk']);
    const github = choices[0];
    expect(github?.eventTypes).toEqual(['push', 'create']);
    expect(github?.urlOptions.map((o) => o.kind)).toEqual(['text', 'boolean']);
    expect(github?.fixtures.map((f) => f.name)).toEqual(['push']);
    expect(github?.eventHeader).toBe('X-GitHub-Event');
    expect(choices.map((c) => [c.inRegistry, c.onServer])).toEqual([
      [true, true],
      [false, true],
      [false, true],
    ]);
  });

  it('falls back to Weir’s registry when the server sends no catalog', () => {
    const choices = integrationChoices({ featureLevel: 100, integrations: null }, registry);
    expect(choices.map((c) => c.name)).toEqual(['github', 'helloworld']);
    expect(choices.every((c) => c.onServer === null && c.inRegistry)).toBe(true);
    expect(choices[0]?.urlOptions).toEqual([{ key: 'branches', label: 'branches', kind: 'text' }]);
    expect(integrationChoices(null, registry)).toHaveLength(2);
  });

  it('labels an option by its key when Zulip’s label is empty', () => {
    expect(optionLabel({ key: 'branches', label: '', kind: 'text' })).toBe('branches');
    expect(optionLabel({ key: 'x', label: 'Exclude', kind: 'boolean' })).toBe('Exclude');
  });
});

describe('the filter box', () => {
  const many = integrationChoices(
    {
      featureLevel: 372,
      integrations: [
        ['gitea', 'Gitea'],
        ['github', 'GitHub'],
        ['gitlab', 'GitLab'],
        ['slack_incoming', 'Slack-compatible webhook'],
        ['json', 'JSON formatter'],
        ['opbeat', 'Opbeat'],
        ['crème', 'Crème Brûlée'],
      ].map(([name = '', displayName = '']) => ({
        name,
        displayName,
        eventTypes: [],
        urlOptions: [],
      })),
    },
    [],
  );

  it('keeps names containing the text, those starting with it first, ignoring case and accents', () => {
    const names = (query: string) => filterChoices(many, query).map((c) => c.name);
    expect(names('git')).toEqual(['gitea', 'github', 'gitlab']);
    expect(names('LAB')).toEqual(['gitlab']);
    expect(names('compatible')).toEqual(['slack_incoming']);
    expect(names('slack_in')).toEqual(['slack_incoming']);
    expect(names('brulee')).toEqual(['crème']);
    expect(names('o')).toEqual(['opbeat', 'json', 'slack_incoming']);
    expect(names('  ')).toHaveLength(many.length);
    expect(names('nothing like it')).toEqual([]);
  });

  it('steps through the filtered list with the arrow keys, stopping at the ends', () => {
    const shown = filterChoices(many, 'git');
    expect(stepChoice(shown, 'helloworld', 1)).toBe('gitea');
    expect(stepChoice(shown, 'helloworld', -1)).toBe('gitlab');
    expect(stepChoice(shown, 'gitea', 1)).toBe('github');
    expect(stepChoice(shown, 'gitlab', 1)).toBe('gitlab');
    expect(stepChoice(shown, 'gitea', -1)).toBe('gitea');
    expect(stepChoice([], 'gitea', 1)).toBeNull();
  });
});
