/**
 * Words for pages: counts with the right plural, and human names for the enum-like values Antigravity writes
 * (artifact types, product folders). Pure; every page and the export take their labels from here so that one
 * thing is named one way everywhere.
 */

/** `1 turn`, `2 turns`, `1 change`; `many` for irregular plurals (`1 child`, `3 children`). Counts in en-US digits. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The artifact types seen in real `.metadata.json` files, by their human name. */
const ARTIFACT_TYPES: Record<string, string> = {
  ARTIFACT_TYPE_IMPLEMENTATION_PLAN: 'Implementation plan',
  ARTIFACT_TYPE_TASK: 'Task list',
  ARTIFACT_TYPE_WALKTHROUGH: 'Walkthrough',
  ARTIFACT_TYPE_OTHER: 'Other',
};

/**
 * `ARTIFACT_TYPE_IMPLEMENTATION_PLAN` → `Implementation plan`. A type not known here still reads as words
 * (`ARTIFACT_TYPE_DESIGN_REVIEW` → `Design review`): Antigravity adds types, and the raw value stays in the
 * artifact's metadata on its page.
 */
export function artifactTypeLabel(type: string): string {
  return ARTIFACT_TYPES[type] ?? enumWords(type.replace(/^ARTIFACT_TYPE_/, ''));
}

/** The record types seen in real transcripts (SURVEY.md's (source, type) table), by a human name; the search's own kinds too. */
const STEP_TYPES: Record<string, string> = {
  USER_INPUT: 'User input',
  PLANNER_RESPONSE: 'Model reply',
  CHECKPOINT: 'Checkpoint',
  SYSTEM_MESSAGE: 'System message',
  EPHEMERAL_MESSAGE: 'Ephemeral message',
  ERROR_MESSAGE: 'Error',
  CONVERSATION_HISTORY: 'Conversation history',
  KNOWLEDGE_ARTIFACTS: 'Knowledge items',
  RUN_COMMAND: 'Command result',
  COMMAND_STATUS: 'Command status',
  VIEW_FILE: 'File view',
  CODE_ACTION: 'File edit',
  LIST_DIRECTORY: 'Directory listing',
  GREP_SEARCH: 'Text search',
  FIND: 'File search',
  FIND_BY_NAME: 'File search',
  CODE_SEARCH: 'Code search',
  MCP_TOOL: 'MCP tool result',
  SEARCH_WEB: 'Web search',
  READ_URL_CONTENT: 'Web page',
  GENERATE_IMAGE: 'Image generation',
  ASK_QUESTION: 'Question',
  GENERIC: 'Tool result',
  // Kinds the search tags that are no record type: an artifact's document, a step of `steps/<n>/` files alone.
  ARTIFACT: 'Artifact',
  STEP_FILES_ONLY: 'Step files only',
};

/** Prefixes some builds write before a step's type or status (`CORTEX_STEP_TYPE_RUN_COMMAND`, held-out sessions). */
const STEP_ENUM_PREFIX = /^CORTEX_STEP_(?:TYPE|STATUS)_/;

/**
 * `RUN_COMMAND` → `Command result`. A type not known here still reads as words (`BROWSER_ACTION` → `Browser
 * action`): Antigravity adds types, and the enum stays in the badge's title and the raw record.
 */
export function stepTypeLabel(type: string): string {
  const bare = type.replace(STEP_ENUM_PREFIX, '');
  return STEP_TYPES[bare] ?? enumWords(bare);
}

/** A step's status as words: `DONE` → `Done`, `CORTEX_STEP_STATUS_ERROR` → `Error`. */
export function stepStatusLabel(status: string): string {
  return enumWords(status.replace(STEP_ENUM_PREFIX, ''));
}

/** An enum value Antigravity writes, as words: `BROWSER_ACTION` → `Browser action` (the value itself when empty). */
export function enumWords(value: string): string {
  const words = value.replace(/_+/g, ' ').trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : value;
}

/** What each product folder under `~/.gemini/` is (shown on /about/ and as the product badge's title). */
export const PRODUCTS: readonly { folder: string; name: string; what: string }[] = [
  { folder: 'antigravity', name: 'Antigravity', what: 'the Antigravity desktop app and editor (its Agent Manager and editor agent)' },
  { folder: 'antigravity-ide', name: 'Antigravity IDE', what: 'sessions of the Antigravity editor build that keeps its own folder' },
  { folder: 'antigravity-cli', name: 'Antigravity CLI', what: 'the terminal client (`agy`): coding sessions, background tasks, slash commands' },
  { folder: 'antigravity-acp', name: 'Antigravity ACP', what: 'the Agent Client Protocol server: the agent driven headless by another editor or by CI' },
  { folder: 'jetski', name: 'Jetski', what: "a brain folder written by another build of Antigravity's agent (same format; seen in real data)" },
];

/** `antigravity-cli` → `Antigravity CLI`; any other folder name as it is (it is the product the archive found). */
export function productLabel(folder: string): string {
  return PRODUCTS.find((p) => p.folder === folder)?.name ?? folder;
}
