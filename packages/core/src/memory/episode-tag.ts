/**
 * SPEC D6: the tag every episode the dream cycle writes carries (episode extraction gives it;
 * memory search reads it, see `MEMORY_RERANK.restatement`).
 */
export const EPISODE_TAG = 'episode';
