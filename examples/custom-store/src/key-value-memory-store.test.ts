import { describeLongTermMemoryConformance } from '@reverie/core/testing';
import { MapBackend } from './key-value-backend';
import { KeyValueMemoryStore } from './key-value-memory-store';

// One backend per test scope, so a store reopened in the same test sees what the first wrote:
// that is what makes the persistence cases of the kit meaningful for this store.
const backends = new Map<string, MapBackend>();
const backendFor = (scope: string) => {
  let backend = backends.get(scope);
  if (!backend) backends.set(scope, (backend = new MapBackend()));
  return backend;
};

describeLongTermMemoryConformance(
  'KeyValueMemoryStore',
  ({ clock, scope }) => new KeyValueMemoryStore({ backend: backendFor(scope), clock }),
  { persistent: true, cleanup: (scope) => void backends.delete(scope) },
);
