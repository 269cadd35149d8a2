import { invalidOptions, type OptionIssue } from '@reverie/core';
import { isReverieContainer, type ReverieContainer } from '../di/reverie-container';
import { ServiceContainer } from '../di/service-container';
import { HostContainerRegistry, type ServiceRegistry } from '../di/service-registry';
import { tokenRole, TOKEN_ROLES } from '../di/token-roles';
import { TOKENS } from '../di/tokens';
import type { ReverieConfig } from './builder-options';

/**
 * Where an instance registers its services: a child of the host's tsyringe container when
 * `createReverie({ container })` gave one (SPEC E2), Reverie's own container otherwise.
 */
export function instanceRegistry(container: unknown): ServiceRegistry {
  if (container !== undefined && !isReverieContainer(container)) {
    throw invalidOptions(
      'createReverie({ container }) takes a tsyringe DependencyContainer (`import { container } from "tsyringe"`, or a child of it).',
      [{ path: 'createReverie.container', message: 'must be a tsyringe DependencyContainer' }],
    );
  }
  return scopeRegistry(container);
}

/** A child of the host's container for one scope of `buildScopes()`. */
export function scopeRegistry(container: ReverieContainer | undefined): ServiceRegistry {
  return container === undefined ? new ServiceContainer() : new HostContainerRegistry(container, container.createChildContainer());
}

/**
 * `.use(token, implementation)` checked: a token that is not Reverie's, or one Reverie builds,
 * is refused with what to do instead.
 */
export function checkUse(token: unknown): void {
  const known = tokenRole(token);
  if (!known) {
    throw invalidOptions(
      'use(token, implementation) needs a token from TOKENS (import { TOKENS } from "reverie"), such as TOKENS.LongTermMemory.',
      [{ path: 'use.token', message: 'a token from TOKENS' }],
    );
  }
  if (known.role.kind === 'built') {
    throw invalidOptions(`use(TOKENS.${known.name}) is refused: Reverie builds it; ${known.role.advice}.`, [
      { path: `use(TOKENS.${known.name})`, message: `built by Reverie: ${known.role.advice}` },
    ]);
  }
}

/**
 * `createReverie`'s options with the clock, logger, model and embedder the host gave under their
 * tokens filled in: from `.use()`, else from its container when the option is not given. The
 * same service as an option and through `.use()` is refused: keep one.
 */
export function withHostServices(config: ReverieConfig, overrides: ReadonlyMap<symbol, unknown>, registry: ServiceRegistry): ReverieConfig {
  const filled: Record<string, unknown> = { ...config };
  const problems: OptionIssue[] = [];
  for (const [token, { name, role }] of TOKEN_ROLES) {
    if (role.kind !== 'service' || role.option === undefined) continue;
    const option = role.option;
    const asOption = option === 'embedder' ? (config.embedder ?? config.embeddingModel) : config[option];
    if (overrides.has(token)) {
      if (asOption !== undefined) {
        problems.push({
          path: `use(TOKENS.${name})`,
          message: `given twice, as createReverie({ ${option === 'embedder' && config.embedder === undefined ? 'embeddingModel' : option} }) and as .use(TOKENS.${name}): keep one`,
        });
      } else filled[option] = overrides.get(token);
    } else if (asOption === undefined && registry.hostProvides(token)) {
      filled[option] = registry.resolve(token);
    }
  }
  if (problems.length > 0)
    throw invalidOptions(`Invalid Reverie options — ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems);
  return filled as ReverieConfig;
}

/** A host container that registered a token Reverie builds is refused: the registration would never be used. */
export function refuseBuiltRegistrations(registry: ServiceRegistry): void {
  const problems: OptionIssue[] = [];
  for (const [token, { name, role }] of TOKEN_ROLES) {
    if (role.kind === 'built' && registry.hostProvides(token)) {
      problems.push({ path: `container(TOKENS.${name})`, message: `built by Reverie, not taken from your container: ${role.advice}` });
    }
  }
  if (problems.length > 0) {
    throw invalidOptions(
      `Your container registers what Reverie builds — ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}. Remove those registrations.`,
      problems,
    );
  }
}

/** The dream passes the host gave through `.use(TOKENS.DreamPass, …)`. */
export function usedPasses(overrides: ReadonlyMap<symbol, unknown>): unknown[] {
  return (overrides.get(TOKENS.DreamPass) as unknown[] | undefined) ?? [];
}
