import { describe, expect, it } from 'vitest';
import { formatJson, jsonProblem } from './json';

describe('jsonProblem', () => {
  it('accepts JSON, including scalars', () => {
    expect(jsonProblem('{"a": [1, 2]}')).toBeNull();
    expect(jsonProblem('"text"')).toBeNull();
  });

  it('says where the text stops being JSON', () => {
    const problem = jsonProblem('{\n  "a": 1,\n  oops\n}');
    expect(problem).not.toBeNull();
    expect(problem?.line).toBe(3);
    expect(problem?.column).toBeGreaterThan(0);
  });

  it('reports an empty body', () => {
    expect(jsonProblem('')?.message).toBeTruthy();
  });
});

describe('formatJson', () => {
  it('indents with two spaces and keeps non-ASCII text', () => {
    expect(formatJson('{"topic":"Café 🚀","n":[1,2]}')).toBe(
      '{\n  "topic": "Café 🚀",\n  "n": [\n    1,\n    2\n  ]\n}',
    );
  });

  it('throws on invalid JSON', () => {
    expect(() => formatJson('{')).toThrow(SyntaxError);
  });
});
