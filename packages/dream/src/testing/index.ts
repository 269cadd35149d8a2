// The dream engine's conformance kit: the engine on a `DreamStateStore`, across handles; run it
// beside `describeDreamStateConformance` from `@reverie/dream-state/testing`. Needs vitest as a peer dependency.
export { describeDreamEngineConformance } from './dream-engine-conformance';
