import { memoryCategories, memoryDelete, memoryGet, memoryList, memorySave, memorySearch, memoryUpdate } from './memory-operations';
import type { Operation } from './operation';

/** Every operation the server serves, as MCP tools and HTTP routes. Adding one is adding a line. */
export const OPERATIONS: readonly Operation[] = [memorySave, memoryUpdate, memoryGet, memoryDelete, memorySearch, memoryList, memoryCategories] as Operation[];
