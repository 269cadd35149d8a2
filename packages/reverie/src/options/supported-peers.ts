import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ReverieError } from '@reverie/core';

/**
 * The peer dependencies `.build()` checks, with the ranges `reverie`'s package.json declares (a
 * test holds them equal): the AI SDK whose models and middleware Reverie speaks (v3 models;
 * `ai@5` providers are v2 and its middleware type differs) and the zod its tools' schemas are
 * written with. A project on other versions gets a nested copy or a peer warning from its package
 * manager, and then type errors far from the cause: `.build()` names the cause instead.
 */
export const SUPPORTED_PEERS: ReadonlyArray<{ name: string; range: string; advice: string }> = [
  {
    name: 'ai',
    range: '^6.0.0',
    advice: 'npm install ai@6, with providers of the same generation (@ai-sdk/openai@3, @ai-sdk/anthropic@3, …)',
  },
  { name: 'zod', range: '^4.6.7', advice: 'npm install zod@4' },
];

/**
 * `require` from this package, in both builds: the CJS build reads `import.meta.url` as
 * `__filename` (tsup.config.ts). Never a global `__filename`: `node -e` and the REPL define one
 * (`[eval]`) where the ESM build runs.
 */
const requireFromReverie = createRequire(import.meta.url);

/**
 * The version of `name` that `reverie` resolves, read from its package.json without loading the
 * package (`import('reverie')` must not load `ai`: docs/architecture.md), or undefined when it
 * is not installed.
 */
export function installedVersion(name: string): string | undefined {
  let path: string;
  try {
    path = requireFromReverie.resolve(`${name}/package.json`);
  } catch {
    return undefined;
  }
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const version = (parsed as { version?: unknown }).version;
  return typeof version === 'string' ? version : undefined;
}

/**
 * Whether `version` satisfies a caret `range` (`^6.0.0`: major 6, at least 6.0.0; a prerelease
 * is below its release). Undefined when it does, else why not. Only the caret ranges of
 * `SUPPORTED_PEERS` are understood. Pure.
 */
export function peerVersionProblem(name: string, range: string, version: string | undefined): string | undefined {
  if (version === undefined) return `reverie needs the package ${name} (${range}) beside it, and it is not installed`;
  const wanted = parseVersion(range.replace(/^\^/, ''));
  const found = parseVersion(version);
  if (!wanted) throw new Error(`SUPPORTED_PEERS: ${range} is not a caret range`);
  const supported = found !== undefined && found.core[0] === wanted.core[0] && compareVersions(found, wanted) >= 0;
  return supported ? undefined : `reverie needs ${name} ${range}, and this project has ${name}@${version}`;
}

let checked: string[] | undefined;

/**
 * UNSUPPORTED_DEPENDENCY naming each peer whose installed version is outside its range, and
 * what to install. Reads the installed versions once per process (`readVersion` for tests).
 */
export function assertSupportedPeers(readVersion: (name: string) => string | undefined = installedVersion): void {
  const problems =
    readVersion === installedVersion && checked !== undefined
      ? checked
      : SUPPORTED_PEERS.flatMap(({ name, range, advice }) => {
          const problem = peerVersionProblem(name, range, readVersion(name));
          return problem === undefined ? [] : [`${problem}: ${advice}`];
        });
  if (readVersion === installedVersion) checked = problems;
  if (problems.length === 0) return;
  throw new ReverieError('UNSUPPORTED_DEPENDENCY', `Unsupported dependencies — ${problems.join('; ')}.`, { details: { problems } });
}

interface Version {
  core: [number, number, number];
  prerelease: boolean;
}

function parseVersion(text: string): Version | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] !== undefined };
}

function compareVersions(a: Version, b: Version): number {
  for (let index = 0; index < 3; index += 1) {
    const difference = a.core[index]! - b.core[index]!;
    if (difference !== 0) return difference;
  }
  return Number(b.prerelease) - Number(a.prerelease);
}
