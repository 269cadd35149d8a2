// `@reverie/dream/internal`: unstable: for Reverie's own packages. The parts of the engine that
// other packages of the monorepo use directly — the recall signals and the promotion explanation
// `reverie` loads with its first `dreams.explain` or signal-gate check, the model gateway its
// tests build, the bench's memory store without a change feed. Not covered by semver: it may
// change in any release. Applications use `reverie`, or this package's main entry.
export { type CandidateQuery, type RecallCandidate, RecallSignalStore } from './recall/recall-signal-store';
export { explainPromotion } from './recall/explain-promotion';
export { ModelGateway, type ModelGatewayOptions } from './gateway/model-gateway';
export { withoutChangeFeed } from './changes/memory-feed';
export { explainEntryValue, type TierNeighbour, type TierReport, tierReport } from './tiers/tier-report';
export { faultPoint } from './engine/fault-points';
