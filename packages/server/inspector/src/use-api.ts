import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
}

/** GETs `path` (again when it changes, or on `reload`); `undefined` skips the call. */
export function useApi<T>(path: string | undefined): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: path !== undefined });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (path === undefined) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    api<T>(path).then(
      (data) => current && setState({ data, loading: false }),
      (error: Error) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [path, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
