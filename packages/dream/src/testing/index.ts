// The dream-state conformance kit: the behaviour every `DreamStateStore` must show. Needs vitest as a peer dependency.
export {
  describeDreamStateConformance,
  DREAM_STATE_START,
  type DreamStateContext,
  type DreamStateFactory,
  type DreamStateScope,
} from './dream-state-conformance';
