/**
 * The MCP tools' names before they took the agent tools' (`save_memory`, `search_memory`, …) and
 * the verb-first pattern: one name per operation. For one release a call by an old name is
 * refused with an error naming the new one (`UNKNOWN_TOOL`), so a client configured with the old
 * names learns what to call instead; the old names are not listed. Remove after that release.
 */
export const RENAMED_TOOLS: ReadonlyMap<string, string> = new Map([
  ['memory_save', 'save_memory'],
  ['memory_update', 'update_memory'],
  ['memory_get', 'get_memory'],
  ['memory_lineage', 'get_memory_lineage'],
  ['memory_delete', 'delete_memory'],
  ['memory_search', 'search_memory'],
  ['memory_list', 'list_memory'],
  ['memory_categories', 'list_memory_categories'],
  ['working_memory_save', 'save_to_working_memory'],
  ['working_memory_get', 'get_from_working_memory'],
  ['working_memory_list', 'list_working_memory'],
  ['working_memory_search', 'search_working_memory'],
  ['skills_list', 'list_skills'],
  ['skills_get', 'get_skill'],
  ['dream_status', 'get_dream_status'],
  ['dream_run', 'run_dream'],
  ['dream_trigger', 'trigger_dream'],
  ['dream_plan', 'plan_dream'],
  ['dream_plans', 'list_dream_plans'],
  ['dream_apply', 'apply_dream_plan'],
  ['dream_runs', 'list_dream_runs'],
  ['dream_show', 'show_dream_run'],
  ['dream_undo', 'undo_dream_run'],
  ['doctor', 'check_reverie'],
]);
