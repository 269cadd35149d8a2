/**
 * SPEC D11: words that mark a preference about security, credentials or money. Each is matched
 * as a whole word, case-insensitively, with an optional plural `s`; spaces inside a phrase may
 * also be a hyphen or an underscore, or be left out.
 */
export const PERMISSION_KEYWORDS: readonly string[] = [
  // security and credentials
  'security',
  'secure',
  'password',
  'passphrase',
  'passcode',
  'pin code',
  'credential',
  'login',
  'token',
  'api key',
  'secret',
  'private key',
  'ssh key',
  'encryption',
  '2fa',
  'mfa',
  'two factor',
  'otp',
  'authenticator',
  // money
  'bank',
  'banking',
  'iban',
  'card',
  'cvv',
  'payment',
  'money',
  'price',
  'pricing',
  'cost',
  'budget',
  'invoice',
  'billing',
  'salary',
  'wage',
  'income',
  'tax',
  'taxes',
  'wallet',
  'crypto',
  'bitcoin',
  'purchase',
  'refund',
  'loan',
  'mortgage',
  'expense',
  'spending',
];

/** A currency sign next to an amount (`$20`, `20 €`) also counts as money. */
const AMOUNT = /[$€£¥₹]\s?\d|\d\s?[$€£¥₹]/u;

const KEYWORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${PERMISSION_KEYWORDS.map((word) => word.split(' ').map(escapeRegExp).join(String.raw`[\s_-]?`)).join('|')})s?(?![\p{L}\p{N}])`,
  'iu',
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The keyword (or currency amount) that makes a preference need the user's permission before it
 * is acted on, or undefined when `text` touches neither security, credentials nor money. Pure.
 */
export function permissionKeyword(text: string): string | undefined {
  const word = KEYWORD.exec(text);
  if (word) return word[0].toLowerCase();
  const amount = AMOUNT.exec(text);
  return amount ? amount[0] : undefined;
}

/** Whether a preference worded `text` must carry `requires_user_permission=true` (SPEC D11). Pure. */
export function requiresUserPermission(text: string): boolean {
  return permissionKeyword(text) !== undefined;
}
