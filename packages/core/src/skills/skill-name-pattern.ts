import { z } from 'zod';

/**
 * A pattern over skill names, for options such as `withSkills({ protected: ['mcp/*'] })`:
 * `*` stands for any characters within one segment, `**` for any characters across segments
 * (`mcp/**` also covers `mcp/email/send`); everything else matches itself. A pattern without
 * wildcards names one skill.
 */
export const skillNamePatternSchema = z
  .string()
  .min(1, 'a skill name pattern cannot be empty')
  .max(256, 'a skill name pattern is at most 256 characters')
  .refine((pattern) => !pattern.startsWith('/'), 'a skill name pattern is relative, like "mcp/*" (no leading "/")');

/** Whether `name` matches `pattern` (see `skillNamePatternSchema`). Pure. */
export function skillNameMatches(name: string, pattern: string): boolean {
  return patternToRegExp(pattern).test(name);
}

/** Whether `name` matches any of `patterns`. Pure. */
export function matchesAnySkillPattern(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => skillNameMatches(name, pattern));
}

function patternToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') {
      source += '[^/]*';
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}
