import type { IncomingMessage, ServerResponse } from 'node:http';

/** What to do with a request's Origin: no header, the page's own origin, a configured one, or none of those. */
export type OriginVerdict = 'none' | 'same-origin' | 'allowed' | 'refused';

/**
 * Judges the Origin header against the Host it was sent to and the configured origins. The origin
 * "null" (a file:, data: or sandboxed page, which any page can become) is never allowed (SPEC O10). Pure.
 */
export function judgeOrigin(origin: string | undefined, host: string | undefined, allowedOrigins: readonly string[]): OriginVerdict {
  if (origin === undefined) return 'none';
  if (origin.trim().toLowerCase() === 'null') return 'refused';
  if (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)) return 'same-origin';
  return allowedOrigins.includes(origin) ? 'allowed' : 'refused';
}

const ALLOWED_HEADERS = 'Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, X-Reverie-Session';

/** The headers that let a configured origin read the answer (and send the preflighted request). */
export function writeCorsHeaders(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('Access-Control-Allow-Origin', request.headers.origin!);
  response.setHeader('Vary', 'Origin');
  response.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  response.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
  response.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id');
  response.setHeader('Access-Control-Max-Age', '600');
}
