/** The HTTP API as the page calls it: same origin, JSON, the bearer token when one was given. */

const TOKEN_KEY = 'reverie-inspector-token';

/** Fired on `window` when the server asks for its token (401). */
export const UNAUTHORIZED_EVENT = 'reverie:unauthorized';

/** An answer that was not 2xx, with the server's error code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The token kept for this browser tab (sessionStorage: gone when the tab closes). */
export function savedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export async function api<T>(
  path: string,
  { method = 'GET', body }: { method?: 'GET' | 'POST' | 'DELETE'; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = savedToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const payload = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  if (!response.ok) {
    if (response.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    throw new ApiError(response.status, payload?.error?.code ?? `HTTP_${response.status}`, payload?.error?.message ?? response.statusText);
  }
  return payload as T;
}

/** A query string from the defined values. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
