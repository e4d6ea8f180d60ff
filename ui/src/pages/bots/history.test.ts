import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../lib/stores/workbench.svelte';
import { describeChanges } from './history';

function entry(overrides: Partial<HistoryEntry['request']['spec']> = {}, more = {}): HistoryEntry {
  return {
    id: 1,
    at: 0,
    accountId: 1,
    fixture: 'push',
    status: 200,
    request: {
      botUserId: 101,
      spec: {
        integration: 'bitbucket2',
        stream: 'general',
        topic: null,
        onlyEvents: [],
        excludeEvents: [],
        options: [],
        ...overrides,
      },
      headers: [['X-Event-Key', 'repo:push']],
      body: '{}',
    },
    ...more,
  };
}

describe('describeChanges', () => {
  it('names what changed since the request before', () => {
    const before = entry();
    const after = entry({ stream: 'genral', excludeEvents: ['push'], topic: 'deploys' });
    expect(describeChanges(after, before)).toEqual([
      'stream “general” → “genral”',
      'topic default → “deploys”',
      'exclude +push',
    ]);
  });

  it('tells an edited body from a new sample, and a replay from a first request', () => {
    const before = entry();
    const edited = { ...entry(), request: { ...entry().request, body: '{"a": 1}' } };
    expect(describeChanges(edited, before)).toEqual(['body edited']);
    const fork = { ...entry({}, { fixture: 'fork' }), request: { ...edited.request } };
    expect(describeChanges(fork, before)).toEqual(['sample “push” → “fork”']);
    expect(describeChanges(entry(), before)).toEqual(['same request again']);
    expect(describeChanges(before, null)).toEqual(['first request']);
    expect(describeChanges(entry({ stream: null }), before)).toEqual([
      'stream “general” → none (direct message)',
    ]);
  });
});
