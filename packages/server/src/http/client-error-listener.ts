import type { Duplex } from 'node:stream';

/** A whole HTTP/1.1 answer with a JSON error body, written straight to a socket the server could not hand to a route. */
function rawJsonError(status: number, reason: string, code: string, message: string): string {
  const body = JSON.stringify({ error: { code, message } });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The server's `clientError` listener: a request that did not arrive in time (headers or body
 * past `requestTimeoutSeconds`) is answered 408 REQUEST_TIMEOUT, a request that is not HTTP 400
 * INVALID_INPUT, both as JSON like every other error, and the connection is closed. A socket
 * that already answered, or can no longer be written to, is only closed.
 */
export function onClientError(error: Error & { code?: string }, socket: Duplex & { bytesWritten?: number }): void {
  if (!socket.writable || (socket.bytesWritten ?? 0) > 0 || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const answer =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? rawJsonError(
          408,
          'Request Timeout',
          'REQUEST_TIMEOUT',
          'The request did not arrive in time (requestTimeoutSeconds): send its headers and body without pausing.',
        )
      : rawJsonError(400, 'Bad Request', 'INVALID_INPUT', 'The request is not valid HTTP/1.1.');
  socket.end(answer);
}
