import { describe, expect, it } from 'vitest';
import { permissionKeyword, requiresUserPermission } from './requires-user-permission';

describe('requiresUserPermission (SPEC D11)', () => {
  it.each([
    'Never store my password in plain text',
    'Always ask before using my API key',
    'Prefers api-keys kept in a vault',
    'Wants 2FA on every account',
    'Keep credentials out of the chat',
    'Do not touch the secrets file',
    'Pay invoices only after checking with the user',
    'Keeps a monthly budget for groceries',
    'Dislikes talking about salary',
    'Uses the company credit card for travel',
    'Prefers prices in euros',
    'Never move money between bank accounts without asking',
    'Wants a two-factor prompt',
    'Spend at most $50 on gifts',
    'Security updates should be installed on Sundays',
  ])('flags %j', (text) => {
    expect(requiresUserPermission(text)).toBe(true);
  });

  it.each([
    'Prefers short answers',
    'Likes dark mode in every editor',
    'Wants code samples in TypeScript',
    'Dislikes emojis in commit messages',
    'Tokenizer settings: no stemming', // a longer word that merely starts with a keyword
    'Discards drafts after a week', // "card" inside a word
    'Reads the bankside news', // "bank" inside a word
  ])('leaves %j alone', (text) => {
    expect(requiresUserPermission(text)).toBe(false);
  });

  it('names the keyword that matched', () => {
    expect(permissionKeyword('Rotate the access TOKENS monthly')).toBe('tokens');
    expect(permissionKeyword('Costs 20 € at most')).toBe('costs');
    expect(permissionKeyword('Lunch under 20€')).toBe('0€');
    expect(permissionKeyword('Prefers tea')).toBeUndefined();
  });
});
