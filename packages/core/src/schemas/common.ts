import { z } from 'zod';
import { CATEGORY_RULES, pathNameProblem, SKILL_NAME_RULES, WORKING_MEMORY_KEY_RULES } from '../validation/path-name';
import { ID_PATTERN } from '../ids/new-id';

/** A time a caller passes: a valid `Date` or an ISO-8601 timestamp with a zone. */
export type TimeInput = Date | string;

/**
 * An ISO-8601 timestamp with a zone (`2026-11-21T09:30:00.000Z` or `+02:00`). A valid `Date` is
 * accepted too and becomes its ISO string, so what Reverie stores and returns is always a string.
 */
export const timestampSchema = z
  .union([
    z.date({ error: 'must be a valid Date or an ISO timestamp such as "2026-11-21T09:30:00.000Z"' }),
    z.iso.datetime({ offset: true }),
  ])
  .transform((value) => (typeof value === 'string' ? value : value.toISOString()));

/** The pattern `z.iso.datetime({ offset: true })` checks a string against (zod's own). */
const ISO_TIMESTAMP_PATTERN = z.regexes.datetime({ offset: true });

/**
 * True for a string `timestampSchema` accepts, without running a parse: a regular expression
 * test that allocates nothing, for paths that read timestamps many times (sorting a listing).
 */
export function isIsoTimestamp(value: string): boolean {
  return ISO_TIMESTAMP_PATTERN.test(value);
}

/** The most characters a memory entry's content holds (and each passage its lineage keeps, SPEC B10). */
export const MAX_MEMORY_CONTENT_LENGTH = 65_536;

export const idSchema = z.string().regex(ID_PATTERN, 'must be 12 lowercase hex characters');

const pathSchema = (rules: typeof CATEGORY_RULES, what: string) =>
  z.string().superRefine((value, ctx) => {
    const problem = pathNameProblem(value, rules);
    if (problem) ctx.addIssue({ code: 'custom', message: `invalid ${what}: ${problem}` });
  });

export const categorySchema = pathSchema(CATEGORY_RULES, 'category');
export const skillNameSchema = pathSchema(SKILL_NAME_RULES, 'skill name');
export const workingMemoryKeySchema = pathSchema(WORKING_MEMORY_KEY_RULES, 'working-memory key');

export const MAX_TAGS = 32;
export const tagSchema = z
  .string()
  .min(1, 'a tag cannot be empty')
  .max(64, 'a tag is at most 64 characters')
  .refine((tag) => tag.trim() === tag, 'a tag cannot start or end with whitespace');
export const tagsSchema = z.array(tagSchema).max(MAX_TAGS, `at most ${MAX_TAGS} tags`);

export const metadataSchema = z.record(z.string().min(1).max(128), z.string().max(4096));

/** The longest query text a search of memories, skills or working memory accepts. */
export const MAX_SEARCH_TEXT_LENGTH = 4096;
/** The most results a search of memories, skills or working memory may ask for. */
export const MAX_SEARCH_RESULTS = 1000;

/** A search's `text`: what every store ranks by BM25 (plus cosine with an embedder). */
export const searchTextSchema = z.string().max(MAX_SEARCH_TEXT_LENGTH);
/** A search's `maxResults`, with the store family's own default. */
export const searchResultCountSchema = (defaultCount: number) => z.number().int().min(1).max(MAX_SEARCH_RESULTS).default(defaultCount);
