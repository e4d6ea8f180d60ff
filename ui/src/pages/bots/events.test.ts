import { describe, expect, it } from 'vitest';
import type { FixtureSummary } from '../../lib/bindings/FixtureSummary';
import { fixtureLabel, headerValuesByEvent, wrapPoints } from './events';

const fixtures: FixtureSummary[] = [
  { name: 'push', body: '{}', headers: [['X-Event-Key', 'repo:push']], event: 'push' },
  {
    name: 'pull_request_created',
    body: '{}',
    headers: [['x-event-key', 'pullrequest:created']],
    event: 'pull_request_created',
  },
  { name: 'push_tag', body: '{}', headers: [['X-Event-Key', 'repo:push']], event: 'push' },
  { name: 'no_event', body: '{}', headers: [], event: null },
];

describe('headerValuesByEvent', () => {
  it('names the header value each Zulip event comes with, once', () => {
    expect(headerValuesByEvent(fixtures, 'X-Event-Key')).toEqual(
      new Map([
        ['push', ['repo:push']],
        ['pull_request_created', ['pullrequest:created']],
      ]),
    );
    expect(headerValuesByEvent(fixtures, null).size).toBe(0);
  });
});

describe('fixtureLabel', () => {
  it('adds the event name only when it differs from the sample’s', () => {
    expect(fixtureLabel(fixtures[0] as FixtureSummary)).toBe('push');
    expect(fixtureLabel(fixtures[2] as FixtureSummary)).toBe('push_tag (event push)');
    expect(fixtureLabel(fixtures[3] as FixtureSummary)).toBe('no_event');
  });
});

describe('wrapPoints', () => {
  it('cuts after separators, keeping every character', () => {
    expect(wrapPoints('change_commit_status')).toEqual(['change_', 'commit_', 'status']);
    expect(wrapPoints('X-Event-Key: repo:commit_status')).toEqual([
      'X-',
      'Event-',
      'Key:',
      ' repo:',
      'commit_',
      'status',
    ]);
    expect(wrapPoints('push')).toEqual(['push']);
    expect(wrapPoints('a__b').join('')).toBe('a__b');
    expect(wrapPoints('')).toEqual(['']);
  });
});
