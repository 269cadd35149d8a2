// The dream-state conformance kit: the behaviour every `DreamStateStore` must show. Needs vitest as a peer dependency.
export { describeDreamStateConformance } from './dream-state-conformance';
export {
  DREAM_STATE_START,
  type DreamStateContext,
  type DreamStateFactory,
  type DreamStateHarness,
  type DreamStateScope,
  handlesAsProcesses,
  type SimulatedProcess,
  useDreamStateScope,
} from './dream-state-scope';
