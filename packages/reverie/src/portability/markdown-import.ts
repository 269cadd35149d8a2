import { categorySlug, importedEntry } from './imported-entry';
import type { ParsedImport } from './parse-export';

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;
const CONTINUATION = /^\s{2,}\S/;

/**
 * SPEC B15: a Markdown memory file (MEMORY.md and the like) as memories. Each bullet point is an
 * entry (indented lines below it continue it), each other paragraph is one too; headings become
 * categories, nested by level (`## Preferences` then `### Food` files under `preferences/food`),
 * and text before any heading goes to `general`. A heading that makes no valid category is a
 * problem at its line. Pure but for new ids.
 */
export function parseMarkdownMemories(text: string, source: string, now: string): ParsedImport {
  const result: ParsedImport = { records: [], problems: [] };
  const headings: Array<{ level: number; slug: string }> = [];
  let current: { line: number; text: string } | undefined;
  const category = () =>
    headings
      .map((heading) => heading.slug)
      .filter((slug) => slug !== '')
      .join('/') || undefined;
  const flush = () => {
    if (current === undefined || current.text.trim() === '') {
      current = undefined;
      return;
    }
    const entry = importedEntry({ content: current.text, category: category() }, source, now);
    if ('problem' in entry) result.problems.push({ line: current.line, message: entry.problem });
    else result.records.push({ type: 'memory', entry });
    current = undefined;
  };
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    const heading = HEADING.exec(raw);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      while (headings.length > 0 && headings.at(-1)!.level >= level) headings.pop();
      headings.push({ level, slug: categorySlug(heading[2]!) });
      continue;
    }
    if (raw.trim() === '') {
      flush();
      continue;
    }
    const bullet = BULLET.exec(raw);
    if (bullet) {
      flush();
      current = { line, text: bullet[1]! };
    } else if (current !== undefined && (CONTINUATION.test(raw) || !BULLET.test(raw))) {
      current.text += ` ${raw.trim()}`;
    } else {
      current = { line, text: raw.trim() };
    }
  }
  flush();
  return result;
}
