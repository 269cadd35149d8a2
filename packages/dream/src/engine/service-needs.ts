import type { ServiceName } from './dream-types';

/** What each service is called where a user configures it (SPEC D2). */
const SERVICE_DESCRIPTIONS: ReadonlyMap<ServiceName, string> = new Map<ServiceName, string>([
  ['memory', 'long-term memory (.withMemory())'],
  ['conversationLog', 'a conversation log (.withConversationLog())'],
  ['skills', 'a skill store (.withSkills())'],
  ['skillUsage', 'a skill usage store (.withSkills())'],
  ['feedback', 'a feedback store (.withFeedback())'],
  ['workflowLog', 'a workflow log (.withWorkflowLog())'],
  ['model', 'a language model (createReverie({ model }))'],
]);

/**
 * Why a pass is skipped when services it requires are missing, in the words of the builder call
 * that adds them: `needs a skill store (.withSkills()) and a feedback store (.withFeedback())`.
 * The cycle report and `reverie.dreams.plan()` say the same. Pure.
 */
export function describeServiceNeeds(missing: readonly ServiceName[]): string {
  return `needs ${missing.map((name) => SERVICE_DESCRIPTIONS.get(name) ?? name).join(' and ')}`;
}
