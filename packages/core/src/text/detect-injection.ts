/**
 * Patterns of text addressed to the model or the system rather than stating a fact: role
 * markers and chat-template tokens, "ignore previous instructions", imperatives to the
 * assistant, fake authority, concealment, and shell commands. Each has a short name used in the
 * refusal reason.
 */
export const INJECTION_PATTERNS: readonly { name: string; pattern: RegExp; secondPerson?: boolean }[] = [
  { name: 'a role marker', pattern: /(^|[\n.!?;:]\s*)(system|assistant|developer|tool|user|human|ai)\s*:\s*\S/i },
  {
    name: 'a chat-template token',
    pattern: /<\|[a-z_]+\|>|\[\/?INST\]|<\/?(system|assistant|user|s)>|<<\/?SYS>>|###\s*(instruction|system|response)/i,
  },
  {
    name: '"ignore previous instructions"',
    pattern:
      /\b(ignore|disregard|forget|override|bypass|skip)\b[^.!?\n]{0,40}\b(previous|prior|above|earlier|all|any|safety|your|the)\b[^.!?\n]{0,30}\b(instructions?|rules?|prompts?|guidelines?|polic(y|ies)|directives?|approvals?|restrictions?)\b/i,
  },
  {
    name: 'an instruction to the assistant',
    pattern: /\b(note|message|instructions?|reminder)\s+(to|for)\s+(the\s+)?(ai|assistant|model|system|agent|llm|bot)\b/i,
  },
  {
    name: 'an instruction to the assistant',
    pattern: /\b(you are now|new rule|new instructions?|developer mode|jailbreak|do anything now)\b/i,
  },
  { name: 'an instruction to the assistant', pattern: /\b(you must|you should|you will)\b/i, secondPerson: true },
  { name: 'an instruction to the assistant', pattern: /\bfrom now on,?\s+(you|always|never|ignore|respond|reply|answer|do not|don't)\b/i },
  { name: 'an instruction to the assistant', pattern: /\bobey\b[^.!?\n]{0,20}\b(instructions?|orders?|commands?|attacker|me|us|this)\b/i },
  { name: 'concealment', pattern: /\b(never|don't|do not)\s+(mention|reveal|tell|disclose)\b[^.!?\n]{0,30}\b(this|these)\b/i },
  {
    name: 'an exfiltration request',
    pattern:
      /\b(reveal|print|output|leak|send|export|exfiltrate|dump|upload|forward)\b[^.!?\n]{0,50}\b(secrets?|system prompt|api keys?|passwords?|credentials?|tokens?|environment variables?|memor(y|ies)|pastebin)\b/i,
  },
  { name: 'a shell command', pattern: /\b(curl|wget)\s[^\n|]{1,200}\|\s*(ba|z)?sh\b|\brm\s+-rf\s|\bexecute\s+[`'"]/i },
];

/** The second person: a stored fact is about the user, never addressed to "you". */
const SECOND_PERSON = /\b(you|your|yours|yourself)\b/i;

/**
 * Names of the injection patterns `merged` carries that none of `sources` carries, and "words
 * addressed to the assistant" when the merge says "you" and no source does. `procedure` (a
 * skill: instructions to the assistant by nature) leaves the second person alone ("you should
 * ask first") and looks only for role markers, overrides, exfiltration and the like.
 */
export function detectInjection(sources: readonly string[], merged: string, options: { procedure?: boolean } = {}): string[] {
  const found = new Set<string>();
  for (const { name, pattern, secondPerson } of INJECTION_PATTERNS) {
    if (secondPerson && options.procedure) continue;
    if (pattern.test(merged) && !sources.some((source) => pattern.test(source))) found.add(name);
  }
  if (options.procedure) return [...found];
  if (SECOND_PERSON.test(merged) && !sources.some((source) => SECOND_PERSON.test(source)))
    found.add('words addressed to the assistant ("you")');
  return [...found];
}
