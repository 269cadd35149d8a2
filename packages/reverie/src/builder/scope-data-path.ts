import { join } from 'node:path';
import { scopeFolderName } from '@reverie/core/internal';

/** Where the file stores keep a scope's data: `<dataPath>/scopes/<scopeFolderName(scope)>`. */
export function scopeDataPath(dataPath: string, scope: string): string {
  return join(dataPath, 'scopes', scopeFolderName(scope));
}
