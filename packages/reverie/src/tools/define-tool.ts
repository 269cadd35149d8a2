import type { tool } from 'ai';

/**
 * The AI SDK's `tool()`, which only hands its argument back so TypeScript infers the tool's input
 * and output types. Written here so that building the agent's tools does not load `ai` with
 * `import('reverie')` (see docs/architecture.md, "What loads lazily").
 */
export const defineTool = ((definition: unknown) => definition) as typeof tool;
