import type { ComponentChildren } from 'preact';
import type { Loaded } from './use-api';
import type { MemoryEntry, RecordChange, Skill } from './types';

/** The data of `loaded` once there, else a line saying it is loading or what went wrong. */
export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children(data: T): ComponentChildren }) {
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (loaded.data === undefined) return <p class="muted">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

export function ErrorNote({ error }: { error: Error & { code?: string } }) {
  return (
    <p class="error" role="alert">
      {error.code ? <strong>{error.code}: </strong> : null}
      {error.message}
    </p>
  );
}

/** The fields a person reads in a record, in order. */
function fieldsOf(kind: RecordChange['kind'], record: MemoryEntry | Skill | undefined): Array<[string, string]> {
  if (record === undefined) return [];
  if (kind === 'skill') {
    const skill = record as Skill;
    return [
      ['name', skill.name],
      ['summary', skill.summary],
      ['content', skill.content],
    ];
  }
  const entry = record as MemoryEntry;
  return [
    ['id', entry.id],
    ['content', entry.content],
    ['category', entry.category],
    ['tags', entry.tags.join(', ')],
    ['importance', String(entry.importance)],
    ['reinforced', `${entry.reinforcementCount}×`],
    ['updated', entry.updatedAt],
  ];
}

/** One changed record, before and after, the fields that differ marked. */
export function RecordDiff({ change }: { change: RecordChange }) {
  const before = new Map(fieldsOf(change.kind, change.before));
  const after = new Map(fieldsOf(change.kind, change.after));
  const names = [...new Set([...before.keys(), ...after.keys()])];
  if (names.length === 0) return <p class="muted">No record to show ({change.kind}).</p>;
  return (
    <table class="diff">
      <thead>
        <tr>
          <th />
          <th>Before</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        {names.map((name) => {
          const old = before.get(name);
          const now = after.get(name);
          return (
            <tr key={name} class={old !== now ? 'changed' : ''}>
              <th>{name}</th>
              <td class={old === undefined ? 'none' : 'before'}>{old ?? '—'}</td>
              <td class={now === undefined ? 'none' : 'after'}>{now ?? '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function Badge({ value }: { value: string }) {
  return <span class={`badge ${value}`}>{value}</span>;
}
