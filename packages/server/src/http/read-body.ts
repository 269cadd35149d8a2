import type { IncomingMessage } from 'node:http';
import { ReverieError, ReverieValidationError } from '@reverie/core';

function tooLarge(limit: number): ReverieError {
  return new ReverieError(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than ${limit} bytes: send less (the server's limit is maxBodyBytes).`,
    {
      details: { limit },
    },
  );
}

/**
 * Reads a request body of at most `limit` bytes: a declared Content-Length over it is refused
 * before anything is read, and reading stops as soon as the bytes received pass it
 * (PAYLOAD_TOO_LARGE either way). A body cut off — the server's request timeout closed a client
 * that dripped it, or the client went away — is REQUEST_TIMEOUT.
 */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ReverieError) throw error;
    throw new ReverieError(
      'REQUEST_TIMEOUT',
      'The request body was cut off before it arrived whole (the request timeout, or the client went away): send it again without pausing.',
      {
        cause: error,
      },
    );
  }
  return Buffer.concat(chunks);
}

/** A JSON request body (an empty one is `undefined`); INVALID_INPUT when it is not JSON. */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const body = await readBody(request, limit);
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new ReverieValidationError('INVALID_INPUT', 'The request body is not valid JSON: send a JSON object.', { cause: error });
  }
}
