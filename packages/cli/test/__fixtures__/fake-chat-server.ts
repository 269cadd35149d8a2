import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: Array<{ role: string; content: unknown }> };
}

/** What the fake endpoint answers: an assistant message, or an HTTP error. */
export type ChatAnswer = { content: string } | { status: number; error: string };

/**
 * A local OpenAI-compatible chat endpoint (`POST <url>/chat/completions`) for process-level
 * tests: answers each request with `answer(request)` and records the requests.
 */
export async function startFakeChatServer(answer: (request: ChatRequest) => ChatAnswer | Promise<ChatAnswer>): Promise<{
  /** The base URL to put in REVERIE_MODEL (`<url>#<model>`). */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    req.on('end', async () => {
      const request: ChatRequest = { path: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') as ChatRequest['body'] };
      requests.push(request);
      const reply = await answer(request);
      res.setHeader('content-type', 'application/json');
      if ('status' in reply) {
        res.statusCode = reply.status;
        res.end(JSON.stringify({ error: { message: reply.error, type: 'invalid_request_error' } }));
        return;
      }
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1_780_000_000,
          model: request.body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The endpoint of the dead-letter retry scenario: overloaded (HTTP 500) until `recover()`, then
 * an episode extraction that finds the cat Miso adopted `today` in session s1.
 */
export async function startOverloadedThenExtractingServer(
  today: string,
): Promise<Awaited<ReturnType<typeof startFakeChatServer>> & { recover(): void }> {
  let overloaded = true;
  const server = await startFakeChatServer(() =>
    overloaded
      ? { status: 500, error: 'the model is overloaded' }
      : {
          content: JSON.stringify({
            episodes: [{ content: 'The user adopted a cat named Miso', when: { point: today }, sessionIds: ['s1'] }],
          }),
        },
  );
  return { ...server, recover: () => void (overloaded = false) };
}
