import { useEffect, useState } from 'preact/hooks';
import { saveToken, savedToken, UNAUTHORIZED_EVENT } from './api';
import { href, useRoute } from './route';
import { MemoryView } from './views/memory-view';
import { PlansView } from './views/plans-view';
import { RunsView } from './views/runs-view';
import { StatusView } from './views/status-view';

const TABS = [
  ['memory', 'Memory'],
  ['runs', 'Dream runs'],
  ['plans', 'Plans'],
  ['status', 'Status'],
] as const;

export function App() {
  const route = useRoute();
  const [asking, setAsking] = useState(false);
  // Bumped when a token is given: every view mounts again and loads with it.
  const [session, setSession] = useState(0);
  useEffect(() => {
    const ask = () => setAsking(true);
    window.addEventListener(UNAUTHORIZED_EVENT, ask);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, ask);
  }, []);
  const tab = TABS.some(([name]) => name === route[0]) ? route[0]! : 'memory';
  return (
    <>
      <header class="bar">
        <h1>Reverie inspector</h1>
        <nav>
          {TABS.map(([name, label]) => (
            <a key={name} href={href(name)} class={tab === name ? 'tab active' : 'tab'}>
              {label}
            </a>
          ))}
        </nav>
        <button type="button" class="link" onClick={() => setAsking(true)}>
          {savedToken() ? 'Token set' : 'Set token'}
        </button>
      </header>
      {asking && (
        <TokenForm
          onDone={(token) => {
            saveToken(token);
            setAsking(false);
            setSession((value) => value + 1);
          }}
        />
      )}
      <main key={session}>
        {tab === 'memory' && <MemoryView entryId={route[1]} />}
        {tab === 'runs' && <RunsView runId={route[1]} />}
        {tab === 'plans' && <PlansView />}
        {tab === 'status' && <StatusView />}
      </main>
    </>
  );
}

function TokenForm({ onDone }: { onDone(token: string): void }) {
  const [token, setToken] = useState('');
  return (
    <form
      class="token"
      onSubmit={(event) => {
        event.preventDefault();
        if (token.trim() !== '') onDone(token.trim());
      }}
    >
      <label>
        This server needs its token (the one it was started with, <code>--token</code> or <code>REVERIE_TOKEN</code>). It is kept in this tab only.
        <input type="password" name="token" autoComplete="off" value={token} onInput={(event) => setToken(event.currentTarget.value)} autoFocus />
      </label>
      <button type="submit">Use this token</button>
    </form>
  );
}
