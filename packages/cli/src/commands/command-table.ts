import type { Command } from './command';
import { doctorCommand } from './doctor-command';
import { exportCommand } from './export-command';
import { importCommand } from './import-command';
import { dreamApplyCommand } from './dream-apply-command';
import { dreamPlansCommand } from './dream-plans-command';
import { dreamRetryCommand } from './dream-retry-command';
import { dreamRunCommand } from './dream-run-command';
import { dreamShowCommand } from './dream-show-command';
import { dreamStatusCommand } from './dream-status-command';
import { dreamUndoCommand } from './dream-undo-command';
import { memoryAddCommand } from './memory-add-command';
import { memoryCategoriesCommand } from './memory-categories-command';
import { memoryDeleteCommand } from './memory-delete-command';
import { memoryForgetCommand } from './memory-forget-command';
import { memoryExplainCommand } from './memory-explain-command';
import { memoryHistoryCommand } from './memory-history-command';
import { memoryListCommand } from './memory-list-command';
import { memorySearchCommand } from './memory-search-command';
import { memoryTiersCommand } from './memory-tiers-command';
import { serveCommand } from './serve-command';
import { skillsListCommand } from './skills-list-command';

/** Every command of `reverie`, in the order help lists them. Adding one is adding a line. */
export const COMMANDS: readonly Command[] = [
  dreamRunCommand,
  dreamStatusCommand,
  dreamShowCommand,
  dreamUndoCommand,
  dreamRetryCommand,
  dreamPlansCommand,
  dreamApplyCommand,
  memorySearchCommand,
  memoryListCommand,
  memoryAddCommand,
  memoryDeleteCommand,
  memoryForgetCommand,
  memoryCategoriesCommand,
  memoryExplainCommand,
  memoryTiersCommand,
  memoryHistoryCommand,
  skillsListCommand,
  exportCommand,
  importCommand,
  doctorCommand,
  serveCommand,
];
