import { doctor } from './doctor-operation';
import {
  dreamApply,
  dreamPlan,
  dreamPlans,
  dreamRun,
  dreamRuns,
  dreamShow,
  dreamStatus,
  dreamTrigger,
  dreamUndo,
} from './dream-operations';
import {
  memoryCategories,
  memoryDelete,
  memoryForget,
  memoryGet,
  memoryLineage,
  memoryList,
  memorySave,
  memorySearch,
  memoryUpdate,
} from './memory-operations';
import type { Operation } from './operation';
import { skillsGet, skillsList } from './skill-operations';
import { workingMemoryGet, workingMemoryList, workingMemorySave, workingMemorySearch } from './working-memory-operations';

/** Every operation the server serves, as MCP tools and HTTP routes. Adding one is adding a line. */
export const OPERATIONS: readonly Operation[] = [
  memorySave,
  memoryUpdate,
  memoryGet,
  memoryLineage,
  memoryDelete,
  memoryForget,
  memorySearch,
  memoryList,
  memoryCategories,
  workingMemorySave,
  workingMemoryGet,
  workingMemoryList,
  workingMemorySearch,
  skillsList,
  skillsGet,
  dreamStatus,
  dreamRun,
  dreamTrigger,
  dreamPlan,
  dreamPlans,
  dreamApply,
  dreamRuns,
  dreamShow,
  dreamUndo,
  doctor,
];
