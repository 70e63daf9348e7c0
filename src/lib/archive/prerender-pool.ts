/**
 * What a session's pages will highlight, handed to the highlight workers (`render/highlight-pool.ts`) when the
 * session is first loaded, so its step pages find their code blocks already in the cache. It mirrors the tool
 * views (`src/components/tools/*.astro`) and the step page: a block listed here that a page does not ask for is
 * wasted work on the other core, a block a page asks for that is not listed is highlighted by the page as before.
 * Neither changes a byte of output (the cache is keyed by content).
 */
import type { Session, Step, ToolCall } from '../brain/types.ts';
import { diffHighlightBlocks } from '../render/diff.ts';
import { highlightHead, languageForCommand, languageForPath, stringifyJson } from '../render/highlight.ts';
import { type HighlightBlock, prehighlight } from '../render/highlight-pool.ts';
import { isToolResultType, parseViewedFile, viewedFileCode } from '../render/tool-result.ts';
import { displayValue } from './format.ts';

/** Tools with a view of their own (ToolCall.astro); any other tool shows its arguments as JSON (GenericTool). */
const TOOLS_WITH_VIEWS = new Set([
  'run_command', 'write_to_file', 'replace_file_content', 'multi_replace_file_content', 'view_file', 'list_dir',
  'find_by_name', 'grep_search', 'code_search', 'call_mcp_tool', 'invoke_subagent', 'search_web', 'read_url_content',
  'generate_image', 'manage_task', 'schedule', 'ask_permission', 'ask_question', 'command_status',
]);

/** The head `highlightCode(code, lang)` tokenizes, as a block. */
function codeBlock(code: string, lang: string): HighlightBlock {
  const { headText, language } = highlightHead(code, lang);
  return { code: headText, lang: language };
}

function* callBlocks(call: ToolCall): Generator<HighlightBlock> {
  const args = call.args;
  switch (call.name) {
    case 'run_command':
      yield codeBlock(displayValue(args.CommandLine), languageForCommand());
      return;
    case 'write_to_file':
      yield codeBlock(displayValue(args.CodeContent), languageForPath(displayValue(args.TargetFile)));
      return;
    case 'replace_file_content':
      yield* diffHighlightBlocks(displayValue(args.TargetContent), displayValue(args.ReplacementContent), {
        language: languageForPath(displayValue(args.TargetFile)),
      });
      return;
    case 'multi_replace_file_content': {
      const language = languageForPath(displayValue(args.TargetFile));
      const chunks = Array.isArray(args.ReplacementChunks) ? args.ReplacementChunks : [];
      for (const chunk of chunks) {
        const c = (typeof chunk === 'object' && chunk !== null ? chunk : {}) as Record<string, unknown>;
        yield* diffHighlightBlocks(displayValue(c.TargetContent), displayValue(c.ReplacementContent), { language });
      }
      return;
    }
    case 'call_mcp_tool': {
      const key = ['Arguments', 'arguments', 'Args', 'args', 'ToolArgs'].find((k) => args[k] !== undefined);
      if (key) yield codeBlock(stringifyJson(args[key]), 'json');
      return;
    }
    default: {
      if (TOOLS_WITH_VIEWS.has(call.name)) return;
      const { toolAction: _a, toolSummary: _s, ...rest } = args;
      if (Object.keys(rest).length > 0) yield codeBlock(stringifyJson(rest), 'json');
    }
  }
}

function* stepBlocks(step: Step): Generator<HighlightBlock> {
  for (const call of step.toolCalls) yield* callBlocks(call);
  if (step.content && isToolResultType(step.type) && step.type === 'VIEW_FILE') {
    const file = parseViewedFile(step.content);
    if (file) {
      const { code, lang } = viewedFileCode(file);
      yield codeBlock(code, lang);
    }
  }
}

/** Every code block a session's step pages highlight, in timeline order. */
export function* sessionHighlightBlocks(session: Session): Generator<HighlightBlock> {
  for (const step of session.steps) yield* stepBlocks(step);
}

/** Queues a session's code blocks for the highlight workers; returns at once, never throws. */
export function prehighlightSession(session: Session): void {
  try {
    prehighlight(sessionHighlightBlocks(session));
  } catch {
    // The pool is an optimisation: the pages highlight inline.
  }
}
