import { describe, expect, it } from 'vitest';
import { appliedSummary, requests } from './applySummary';

describe('apply summaries', () => {
  it('counts requests in the singular and plural', () => {
    expect(requests(1)).toBe('1 request');
    expect(requests(0)).toBe('0 requests');
    expect(requests(2)).toBe('2 requests');
  });

  it('says what was applied, and what stays staged', () => {
    expect(appliedSummary(1, 1, 0)).toBe('Applied 1 change in 1 request.');
    expect(appliedSummary(3, 2, 2)).toBe(
      'Applied 3 changes in 2 requests. 2 not applied: still staged.',
    );
  });
});
