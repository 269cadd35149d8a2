import { z } from 'zod';

/**
 * The text LoCoMo's licence (CC BY-NC 4.0) keeps out of this repository is its conversations'
 * turns and observations, which a recorded cycle's prompts quote. A recorded request is kept with
 * only what a replay needs to match it (`promptKey`): the system message (Reverie's own directive),
 * and of the user message the lines that name an entry (`[id] (category) first=… :`, its text
 * left out) or a session (`Session "<id>": …`), and the host's own lines (the day, repair
 * instructions). The model's reply is kept as it was written.
 */
const requestSchema = z.object({ messages: z.array(z.object({ role: z.string(), content: z.unknown() }).loose()) }).loose();

/** An entry line: the part before its text, which is the stored (LoCoMo) text. */
const ENTRY_LINE = /^(\[[0-9a-f]{12}\] \([^)]*\) .*?) : ".*"$/;
const SESSION_LINE = /^Session "(?:[^"\\]|\\.)*": /;
/** Where a redacted text stood. */
export const LEFT_OUT = '"[LoCoMo text, read from ../shared/data at run time]"';

/** The user message with LoCoMo's text left out (see above). Pure. */
export function redactUserText(text: string): string {
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const entry = ENTRY_LINE.exec(line);
    if (entry) kept.push(`${entry[1]} : ${LEFT_OUT}`);
    else if (
      SESSION_LINE.test(line) ||
      /^Today is \d{4}-\d{2}-\d{2}\./.test(line) ||
      /^(Reply with|\{"|For each refused|Each replacement)/.test(line)
    )
      kept.push(line);
  }
  return kept.join('\n');
}

/** A recorded request (`req-NNNN.json`, as the OpenAI-compatible endpoint received it) with its user messages redacted. Pure. */
export function redactRequest(json: string): string {
  const request = requestSchema.parse(JSON.parse(json));
  const textOf = (content: unknown) =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => (part as { text?: string }).text ?? '').join('')
        : '';
  const messages = request.messages.map((message) =>
    message.role === 'user'
      ? { role: 'user', content: redactUserText(textOf(message.content)) }
      : { role: message.role, content: textOf(message.content) },
  );
  return `${JSON.stringify({ model: (request as { model?: unknown }).model ?? 'recorded', messages }, null, 1)}\n`;
}
