const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/**
 * Takes the first top-level JSON object out of a model's reply and parses it. Replies often wrap
 * the object in prose or a code fence, or start with a `<think>…</think>` block; those are
 * skipped. Braces inside JSON strings (`"a } b"`, escaped quotes) do not count towards the
 * balance. A brace-balanced span that is not valid JSON (`{like this}` in prose, an object with a
 * trailing comma) is passed over as a whole; a brace that never closes is passed over alone.
 *
 * Returns the parsed object, or undefined when the reply holds none. Pure.
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const reply = afterStrayThinkClose(text);
  let position = 0;
  while (position < reply.length) {
    if (reply.startsWith(THINK_OPEN, position)) {
      const close = reply.indexOf(THINK_CLOSE, position + THINK_OPEN.length);
      // An unterminated reasoning block runs to the end of the reply: nothing after it is an answer.
      if (close === -1) return undefined;
      position = close + THINK_CLOSE.length;
      continue;
    }
    if (reply[position] === '{') {
      const end = balancedObjectEnd(reply, position);
      if (end !== undefined) {
        const parsed = parseObject(reply.slice(position, end + 1));
        if (parsed !== undefined) return parsed;
        position = end + 1;
        continue;
      }
    }
    position += 1;
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

/** The index of the `}` that closes the `{` at `start`, or undefined when it never closes. */
function balancedObjectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return undefined;
}

function parseObject(candidate: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(candidate);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
