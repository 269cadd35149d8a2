// The store conformance kit (SPEC B5) and test doubles. Needs vitest as a peer dependency.
export {
  CONFORMANCE_START,
  type ConformanceContext,
  type ConformanceOptions,
  DAY,
  HOSTILE_PATHS,
  HOUR,
  MINUTE,
  type StoreFactory,
} from './conformance-context';
export { describeLongTermMemoryConformance } from './long-term-memory-conformance';
