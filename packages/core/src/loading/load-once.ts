/**
 * A loader for what loads at its first use (docs/architecture.md, "What loads lazily"):
 * `load()` runs at the first call, and every later call gets the same promise, without asking
 * the module loader again. A call after a failed load tries again.
 *
 * `import()` of a module already loaded is not free: the loader resolves the specifier again on
 * every call (about 10 µs; with a loader hook such as tsx's, a round trip to its worker, about
 * 200 µs), which a store lock taken hundreds of times a second would pay each time.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
