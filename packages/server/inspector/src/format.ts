/** `2026-06-01T08:00:00.000Z` → `2026-06-01 08:00` (UTC, as the server's records are). */
export function when(iso: string | undefined): string {
  return iso === undefined ? '—' : iso.replace('T', ' ').slice(0, 16);
}

export function tokens(count: { input: number; output: number }): string {
  return `${count.input.toLocaleString('en')} in / ${count.output.toLocaleString('en')} out`;
}

export function shorten(text: string, length = 160): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
