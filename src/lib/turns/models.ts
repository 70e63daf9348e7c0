/**
 * The model in force at each step. Antigravity announces a switch in the user's input ("`Model Selection` from A
 * to B. No need to comment…"); the model is B from that input on. Before the first switch its `from` side names
 * the model already in force (unless it says `None`, the session's first pick). Only USER_INPUT steps count: a
 * model reply quoting the sentence is not a switch.
 */
import type { Step } from '../brain/types.ts';
import type { ModelSegment } from './types.ts';

const SWITCH = /`Model Selection` from ([^\n\r]*?) to ([^\n\r]+?)\.\s*No need/g;
const SWITCH_LOOSE = /`Model Selection` from ([^\n\r]*?) to ([^\n\r]+?)\.?[ \t]*$/gm;

/** The switches a step's content announces, in order (`from` absent when it says None). */
export function modelSwitches(step: Step): { from?: string; to: string }[] {
  if (step.type !== 'USER_INPUT' || !step.content?.includes('Model Selection')) return [];
  let found = [...step.content.matchAll(SWITCH)];
  if (found.length === 0) found = [...step.content.matchAll(SWITCH_LOOSE)];
  return found.map((m) => {
    const from = (m[1] ?? '').trim();
    const to = (m[2] ?? '').trim();
    return from === '' || from === 'None' ? { to } : { from, to };
  });
}

/** Model in force at each position of `steps` (undefined where unknown), and the stretches they form. */
export function modelsPerStep(steps: readonly Step[]): { perStep: (string | undefined)[]; segments: ModelSegment[] } {
  const switches = steps.map(modelSwitches);
  const firstSwitch = switches.find((s) => s.length > 0)?.[0];
  let current = firstSwitch?.from;
  const perStep: (string | undefined)[] = [];
  for (let i = 0; i < steps.length; i++) {
    const last = switches[i]?.at(-1);
    if (last) current = last.to;
    perStep.push(current);
  }
  const segments: ModelSegment[] = [];
  for (let i = 0; i < steps.length; i++) {
    const model = perStep[i];
    const open = segments.at(-1);
    if (open && open.model === model) {
      open.toPosition = i;
      open.steps++;
    } else {
      const seg: ModelSegment = { fromPosition: i, toPosition: i, firstStepKey: steps[i]?.key ?? String(i), steps: 1 };
      if (model !== undefined) seg.model = model;
      segments.push(seg);
    }
  }
  return { perStep, segments };
}

/** Models in the order used, unknown stretches left out and consecutive repeats merged ("A → B → A" stays three). */
export function modelSequence(segments: readonly ModelSegment[]): string[] {
  const out: string[] = [];
  for (const s of segments) if (s.model !== undefined && out.at(-1) !== s.model) out.push(s.model);
  return out;
}

/** Key for counting steps per model: the name, or `unknown`. */
export const UNKNOWN_MODEL = 'unknown';

/** Chains up to this long are shown whole (`A → B → A`); longer ones are summarised with the list behind it. */
const CHAIN_SHOWN_WHOLE = 3;

/**
 * How a session's model chain reads in a header or a card: the chain itself while it is short, else
 * `4 models, 14 switches` (a real session switched 14 times between 4 models: 11 lines of names).
 */
export function modelChainSummary(sequence: readonly string[]): { text: string; whole: boolean } {
  if (sequence.length <= CHAIN_SHOWN_WHOLE) return { text: sequence.join(' → '), whole: true };
  const distinct = new Set(sequence).size;
  const switches = sequence.length - 1;
  return { text: `${distinct} model${distinct === 1 ? '' : 's'}, ${switches} switch${switches === 1 ? '' : 'es'}`, whole: false };
}
