import { useState } from 'preact/hooks';
import { ApiError, query } from '../api';
import { Badge, RecordDiff, Show } from '../components';
import { shorten, when } from '../format';
import { href } from '../route';
import type { RecordHistoryItem, ServedEntry } from '../types';
import { type Loaded, useApi } from '../use-api';

/** Browse by category, search, and one entry with its history. */
export function MemoryView({ entryId }: { entryId: string | undefined }) {
  const [category, setCategory] = useState<string | undefined>(undefined);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const categories = useApi<Array<{ category: string; count: number }>>('/api/memory/categories');
  const found = useApi<Array<{ entry: ServedEntry; score: number }>>(search === '' ? undefined : `/api/memory/search${query({ query: search, category, limit: 50, tiers: 'all' })}`);
  const listed = useApi<{ total: number; entries: ServedEntry[] }>(search === '' ? `/api/memory${query({ category, limit: 200 })}` : undefined);
  const entries = search === '' ? listed.data?.entries : found.data?.map((hit) => hit.entry);

  return (
    <div class="columns">
      <aside>
        <h2>Categories</h2>
        <Show loaded={categories}>
          {(list) => (
            <ul class="categories">
              <li>
                <button type="button" class={category === undefined ? 'link active' : 'link'} onClick={() => setCategory(undefined)}>
                  All <span class="muted">{list.reduce((sum, item) => sum + item.count, 0)}</span>
                </button>
              </li>
              {list.map((item) => (
                <li key={item.category}>
                  <button type="button" class={category === item.category ? 'link active' : 'link'} onClick={() => setCategory(item.category)}>
                    {item.category} <span class="muted">{item.count}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Show>
      </aside>
      <section class="grow">
        <form
          class="search"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            setSearch(typed.trim());
          }}
        >
          <input type="search" name="query" placeholder="Search memory…" value={typed} onInput={(event) => setTyped(event.currentTarget.value)} />
          <button type="submit">Search</button>
          {search !== '' && (
            <button
              type="button"
              class="link"
              onClick={() => {
                setTyped('');
                setSearch('');
              }}
            >
              Clear
            </button>
          )}
        </form>
        <p class="muted">
          {search === '' ? `${listed.data?.total ?? '…'} entries${category ? ` in ${category}` : ''}` : `Results for “${search}”${category ? ` in ${category}` : ''}`}
        </p>
        <Show loaded={(search === '' ? listed : found) as Loaded<unknown>}>
          {() => (
            <ul class="entries">
              {(entries ?? []).map((entry) => (
                <li key={entry.id} class={entry.id === entryId ? 'selected' : ''}>
                  <a href={href('memory', entry.id)}>{shorten(entry.content)}</a>
                  <div class="meta">
                    {entry.category} · {entry.tier} · importance {entry.effectiveImportance.toFixed(2)} · updated {when(entry.updatedAt)}
                  </div>
                </li>
              ))}
              {entries?.length === 0 && <li class="muted">Nothing found.</li>}
            </ul>
          )}
        </Show>
      </section>
      {entryId !== undefined && <EntryDetail key={entryId} id={entryId} />}
    </div>
  );
}

function EntryDetail({ id }: { id: string }) {
  const entry = useApi<ServedEntry>(`/api/memory/${encodeURIComponent(id)}`);
  const history = useApi<RecordHistoryItem[]>(`/api/memory/${encodeURIComponent(id)}/history`);
  return (
    <section class="detail" aria-label="Entry">
      <h2>Entry {id}</h2>
      {entry.error ? (
        <p class="muted">{entry.error instanceof ApiError && entry.error.code === 'NOT_FOUND' ? 'Not in memory now.' : entry.error.message}</p>
      ) : entry.data ? (
        <>
          <p class="content">{entry.data.content}</p>
          <dl>
            <dt>Category</dt>
            <dd>{entry.data.category}</dd>
            <dt>Tags</dt>
            <dd>{entry.data.tags.join(', ') || '—'}</dd>
            <dt>Importance</dt>
            <dd>
              {entry.data.importance} (now {entry.data.effectiveImportance.toFixed(2)})
            </dd>
            <dt>Tier</dt>
            <dd>{entry.data.tier === 'cold' ? 'cold: out of per-turn recall, still searchable' : 'hot'}</dd>
            <dt>Created</dt>
            <dd>{when(entry.data.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{when(entry.data.updatedAt)}</dd>
          </dl>
        </>
      ) : (
        <p class="muted">Loading…</p>
      )}
      <h3>History</h3>
      <Show loaded={history}>
        {(items) =>
          items.length === 0 ? (
            <p class="muted">No dream run has touched this entry.</p>
          ) : (
            <ol class="history">
              {items.map((item) => (
                <li key={`${item.runId}-${item.pass}-${item.index}`}>
                  <div>
                    <Badge value={item.action} /> by run <a href={href('runs', item.runId)}>{item.runId}</a> ({item.pass}) on {when(item.startedAt)}
                    {item.runStatus === 'undone' && <> · <Badge value="undone" /></>}
                    {item.outcome !== 'applied' && <> · <Badge value={item.outcome} /></>}
                  </div>
                  <div class="meta">{item.reason}</div>
                  <RecordDiff change={item} />
                </li>
              ))}
            </ol>
          )
        }
      </Show>
    </section>
  );
}
