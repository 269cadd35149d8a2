import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Checks an `Authorization` header against the server's token in constant time: both sides are
 * hashed to 32 bytes first, so neither the comparison nor its length leaks how much matched.
 */
export function bearerTokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  const presented = match?.[1]?.trim() ?? '';
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}
