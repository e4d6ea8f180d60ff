/** JSON helpers for the body editor: where a text stops being JSON, and formatting. */

export interface JsonProblem {
  message: string;
  /** 1-based, when the parser said where. */
  line: number | null;
  column: number | null;
}

/** Why `text` is not JSON, or `null` when it is. */
export function jsonProblem(text: string): JsonProblem | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { message, ...position(text, message) };
  }
}

/** `text` re-indented with two spaces; throws a `SyntaxError` when it is not JSON. */
export function formatJson(text: string): string {
  return JSON.stringify(JSON.parse(text), null, 2);
}

/** Line and column from the engine's message ("at position 12", "line 2 column 5"). */
function position(text: string, message: string): Pick<JsonProblem, 'line' | 'column'> {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const offset = /position (\d+)/.exec(message);
  if (!offset) return { line: null, column: null };
  const before = text.slice(0, Number(offset[1]));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}
