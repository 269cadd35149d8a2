import type { PassDeclaration } from './pass-declaration';
import type { DreamPass, PassContext, PassPlan, PassSkip } from './dream-types';

/**
 * A pass class built on its declaration: `super(declaration)` copies the name, phase, required
 * services and model need, so a built-in pass states them once, in its `*-options.ts`.
 */
export abstract class DeclaredPass implements DreamPass {
  readonly name: string;
  readonly phase: PassDeclaration['phase'];
  readonly requires: PassDeclaration['requires'];
  readonly model: PassDeclaration['model'];
  readonly withoutModel?: string;
  readonly spec?: string;

  constructor(declaration: PassDeclaration) {
    this.name = declaration.name;
    this.phase = declaration.phase;
    this.requires = declaration.requires;
    this.model = declaration.model;
    if (declaration.withoutModel !== undefined) this.withoutModel = declaration.withoutModel;
    if (declaration.spec !== undefined) this.spec = declaration.spec;
  }

  abstract plan(context: PassContext): Promise<PassPlan | PassSkip>;
}
