import { invalidOptions } from '@reverie/core';
import type { DreamPass } from '@reverie/dream';
import { BUILT_IN_PASSES, DREAM_PHASES, SERVICE_NAMES } from '@reverie/dream/options';
import { z } from 'zod';

const PASS_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MODEL_NEEDS: readonly string[] = ['required', 'optional', 'none'];
const BUILT_IN_NAMES = new Set(BUILT_IN_PASSES.map((pass) => pass.name));

export interface HostPassIssue {
  /** The pass's place in the list. */
  index: number;
  /** The field that is wrong, or '' for the pass itself. */
  field: string;
  message: string;
}

/**
 * What is wrong with the passes a host adds (`withDreaming({ passes })`, `TOKENS.DreamPass`),
 * one issue per field. Pure: a pass is an object with a
 * declaration (name, phase, requires, model) and `plan()`; its name must be new.
 */
export function hostPassIssues(passes: readonly unknown[]): HostPassIssue[] {
  const issues: HostPassIssue[] = [];
  const seen = new Set<string>();
  passes.forEach((value, index) => {
    if (typeof value !== 'object' || value === null) {
      issues.push({ index, field: '', message: 'a dream pass: an object with name, phase, requires, model and plan(context)' });
      return;
    }
    const pass = value as Partial<Record<keyof DreamPass, unknown>>;
    if (typeof pass.name !== 'string' || !PASS_NAME.test(pass.name)) {
      issues.push({ index, field: 'name', message: 'lower-case words joined by hyphens, such as "tag-cleanup"' });
    } else if (BUILT_IN_NAMES.has(pass.name)) {
      issues.push({ index, field: 'name', message: `"${pass.name}" is a built-in pass: give yours a name of its own` });
    } else if (seen.has(pass.name)) {
      issues.push({ index, field: 'name', message: `a second pass named "${pass.name}": pass names are unique` });
    } else {
      seen.add(pass.name);
    }
    if (!DREAM_PHASES.includes(pass.phase as never)) issues.push({ index, field: 'phase', message: `one of ${DREAM_PHASES.join(', ')}` });
    if (!Array.isArray(pass.requires) || !pass.requires.every((service) => SERVICE_NAMES.includes(service))) {
      issues.push({ index, field: 'requires', message: `a list of services among ${SERVICE_NAMES.join(', ')} (may be empty)` });
    }
    if (!MODEL_NEEDS.includes(pass.model as string)) issues.push({ index, field: 'model', message: `one of ${MODEL_NEEDS.join(', ')}` });
    if (typeof pass.plan !== 'function')
      issues.push({ index, field: 'plan', message: 'plan(context) returning the pass plan or { skipped }' });
    if (pass.commit !== undefined && typeof pass.commit !== 'function') {
      issues.push({ index, field: 'commit', message: 'commit(services, data), or leave it out' });
    }
  });
  return issues;
}

/** The host's passes, checked: INVALID_OPTIONS listing every issue when one is wrong. */
export function checkHostPasses(passes: readonly unknown[], where: string): DreamPass[] {
  const issues = hostPassIssues(passes).map(({ index, field, message }) => ({
    path: `${where}[${index}]${field ? `.${field}` : ''}`,
    message,
  }));
  if (issues.length > 0) {
    throw invalidOptions(
      `A dream pass of the host is not valid (${issues[0]!.path}: ${issues[0]!.message}). See docs/dream-passes.md, "Writing your own pass".`,
      issues,
    );
  }
  return passes as DreamPass[];
}

/** `withDreaming({ passes })`: the host's own passes (docs/dream-passes.md). */
export const hostPassesSchema = z.array(z.custom<DreamPass>()).superRefine((passes, context) => {
  for (const { index, field, message } of hostPassIssues(passes)) {
    context.addIssue({ code: 'custom', message, path: field ? [index, field] : [index] });
  }
});
