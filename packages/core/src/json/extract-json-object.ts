const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/** What one extraction cost, for tests that prove it linear (SPEC B11). */
export interface ExtractionStats {
  /** Characters the scan visited. */
  scanned: number;
  /** Characters handed to `JSON.parse`. */
  parsed: number;
}

/**
 * Takes the first top-level JSON object out of a model's reply and parses it. Replies often wrap
 * the object in prose or a code fence, or start with a `<think>…</think>` block; those are
 * skipped. Braces inside JSON strings (`"a } b"`, escaped quotes) do not count towards the
 * balance. A brace-balanced span that is not valid JSON (`{like this}` in prose, an object with a
 * trailing comma) is passed over as a whole, objects inside it included. A brace that never
 * closes is passed over: the objects that close inside it are tried in order (a quote after an
 * unclosed brace is read as opening a string).
 *
 * Linear in the length of the reply, whatever it holds: one scan, and every character is handed
 * to `JSON.parse` at most once (the spans tried never overlap). A reply of 150,000 `{` costs
 * one scan, not 150,000. Returns the parsed object, or undefined when the reply holds none. Pure.
 */
export function extractJsonObject(text: string, stats?: ExtractionStats): Record<string, unknown> | undefined {
  const reply = afterStrayThinkClose(text);
  const parse = (start: number, end: number) => {
    if (stats) stats.parsed += end + 1 - start;
    return parseObject(reply.slice(start, end + 1));
  };
  /** Start positions of the braces open at this point of the scan, outermost first. */
  const open: number[] = [];
  /** Closed spans inside a brace still open, none inside another (tried if that brace never closes). */
  let inner: Array<{ start: number; end: number }> = [];
  let inString = false;
  let position = 0;
  for (; position < reply.length; position++) {
    if (stats) stats.scanned += 1;
    const char = reply[position];
    if (open.length === 0) {
      if (char === '<' && reply.startsWith(THINK_OPEN, position)) {
        const close = reply.indexOf(THINK_CLOSE, position + THINK_OPEN.length);
        // An unterminated reasoning block runs to the end of the reply: nothing after it is an answer.
        if (close === -1) return undefined;
        if (stats) stats.scanned += close + THINK_CLOSE.length - 1 - position;
        position = close + THINK_CLOSE.length - 1;
      } else if (char === '{') {
        open.push(position);
        inString = false;
      }
      continue;
    }
    if (inString) {
      if (char === '\\') position += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') open.push(position);
    else if (char === '}') {
      const start = open.pop()!;
      if (open.length === 0) {
        const parsed = parse(start, position);
        if (parsed !== undefined) return parsed;
        inner = [];
        continue;
      }
      // Spans closed inside this one are inside it: only the outermost closed span is ever tried.
      while (inner.length > 0 && inner.at(-1)!.start > start) inner.pop();
      inner.push({ start, end: position });
    }
  }
  for (const span of inner) {
    const parsed = parse(span.start, span.end);
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

/**
 * Some models are prompted with the opening `<think>` and only emit the closing tag. A closing
 * tag with no opening before it means everything up to it was reasoning.
 */
function afterStrayThinkClose(text: string): string {
  const close = text.indexOf(THINK_CLOSE);
  if (close === -1) return text;
  const open = text.indexOf(THINK_OPEN);
  return open === -1 || open > close ? text.slice(close + THINK_CLOSE.length) : text;
}

function parseObject(candidate: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(candidate);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
