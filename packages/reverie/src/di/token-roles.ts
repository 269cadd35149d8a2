import { TOKENS } from './tokens';

/**
 * What Reverie does with a service a host gives under a token (`.use(token, …)` or a
 * registration in its tsyringe container):
 * - `service`: honoured, in place of Reverie's default; `shared` says whether one instance may
 *   serve every scope of `buildScopes()` (a clock may; a store would mix the scopes' data);
 *   `option` names the `createReverie` option that gives the same service.
 * - `passes`: honoured, added to the dream cycle's passes (every registration counts).
 * - `built`: refused: Reverie makes it (the host resolves it from `reverie.container`); `advice`
 *   says how to change it.
 */
export type TokenRole =
  | { kind: 'service'; shared: boolean; option?: 'clock' | 'logger' | 'model' | 'embedder' }
  | { kind: 'passes' }
  | { kind: 'built'; advice: string };

const store = { kind: 'service', shared: false } as const;
const built = (advice: string) => ({ kind: 'built', advice }) as const;

/** Every token of `TOKENS` and what a host's registration of it does. */
export const TOKEN_ROLES = new Map<symbol, { name: string; role: TokenRole }>(
  Object.entries({
    LongTermMemory: store,
    WorkingMemory: store,
    SkillStore: store,
    SkillUsageStore: store,
    ConversationLog: store,
    FeedbackStore: store,
    WorkflowLog: store,
    Embedder: { kind: 'service', shared: true, option: 'embedder' },
    Clock: { kind: 'service', shared: true, option: 'clock' },
    Logger: { kind: 'service', shared: true, option: 'logger' },
    LanguageModel: { kind: 'service', shared: true, option: 'model' },
    DreamPass: { kind: 'passes' },
    Scope: built('name it with createReverie({ scope }) or scopes.get(scope)'),
    Reverie: built('resolve it from reverie.container'),
    ReverieMemory: built('give its store under TOKENS.LongTermMemory'),
    Dreams: built('configure it with withDreaming()'),
    AgentTools: built('configure them with withMemory() and withWorkingMemory()'),
    ActivityTracker: built('wrap your model with reverie.trackActivity(model)'),
    ConversationMemory: built('give the conversation log under TOKENS.ConversationLog'),
  } satisfies Record<keyof typeof TOKENS, TokenRole>).map(([name, role]) => [TOKENS[name as keyof typeof TOKENS], { name, role }]),
);

/** The name and role of a token, or undefined when it is not one of Reverie's. */
export function tokenRole(token: unknown): { name: string; role: TokenRole } | undefined {
  return typeof token === 'symbol' ? TOKEN_ROLES.get(token) : undefined;
}
