import { describe, expect, it, vi } from 'vitest';
import { commandNames, useFakeBackend } from '../test/backend';
import { reportStartupAfterPaint, startupMarks } from './startup';

describe('start-up report', () => {
  it('lists the marks in time order, named as the backend accepts, content last', () => {
    performance.clearMarks();
    performance.mark('Overview received!');
    const marks = startupMarks(performance.now() + 1000);
    const names = marks.map((m) => m.name);
    expect(names).toContain('overview received-');
    expect(names.at(-1)).toBe('content painted');
    for (const { name, ms } of marks) {
      expect(name).toMatch(/^[a-z0-9 -]{1,64}$/);
      expect(ms).toBeGreaterThanOrEqual(0);
    }
    const times = marks.map((m) => m.ms);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('keeps at most 32 marks, the latest', () => {
    performance.clearMarks();
    for (let i = 0; i < 40; i++) performance.mark(`mark ${i}`);
    const marks = startupMarks(performance.now() + 1000);
    expect(marks).toHaveLength(32);
    expect(marks.at(-1)?.name).toBe('content painted');
  });

  it('reports once, after the next paint', async () => {
    const backend = useFakeBackend({ report_startup: () => null });
    reportStartupAfterPaint();
    reportStartupAfterPaint();
    expect(commandNames(backend)).toEqual([]);
    await vi.waitFor(() => {
      expect(commandNames(backend)).toEqual(['report_startup']);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(commandNames(backend)).toEqual(['report_startup']);
  });
});
