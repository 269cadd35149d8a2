// `reverie/internal`: unstable: for Reverie's own packages. What the CLI and the server share with
// the runtime beyond its public entry — where the file stores keep a scope's data. Not covered by
// semver: it may change in any release. Applications use the main entry (`reverie`).
export { scopeDataPath } from './builder/scope-data-path';
