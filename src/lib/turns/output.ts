/**
 * The output a call produced, as a reader wants it: a background command's final output from the message saying
 * its task finished (its result step only says "Tool is running as a background task"), else the step's
 * `output.txt` when it holds more than the transcript kept, else the result's text without the transport header.
 */
import type { Step } from '../brain/types.ts';
import { taskFinished, wrappedBody } from './text.ts';
import { displayBody, readCommandText } from './transport.ts';
import type { ToolCallView } from './types.ts';

/** A call's output and where it was taken from. */
export interface CallOutput {
  text: string;
  /** `task`: the finished-task message (step `stepKey`); `file`: the result's output.txt; `result`: the result's text. */
  from: 'task' | 'file' | 'result';
  /** The step holding the text. */
  stepKey: string;
  /** For `file`: the output file's path in the session folder. */
  file?: string;
}

const trim = (t: string): string => t.replace(/^\s*\n/, '').trimEnd();

/** The output of `call`; `stepOf` looks a step up by key. Undefined when nothing holds any. */
export function callOutput(call: ToolCallView, stepOf: (key: string) => Step | undefined): CallOutput | undefined {
  const finishedKey = call.outcome.background?.finishedStepKey;
  const finished = finishedKey !== undefined ? stepOf(finishedKey) : undefined;
  const done = finished ? taskFinished(wrappedBody(finished.content, 'SYSTEM_MESSAGE')) : undefined;
  if (done && finishedKey !== undefined) {
    const text = readCommandText(done.result.replace(/^\s*\r?\n/, ''));
    return { text: trim(text.state === 'unknown' ? done.result : text.output), from: 'task', stepKey: finishedKey };
  }
  const result = call.resultStepKey !== undefined ? stepOf(call.resultStepKey) : undefined;
  if (!result || call.resultStepKey === undefined) return undefined;
  if (result.output && !result.output.duplicateOfContent) return { text: trim(result.output.text), from: 'file', stepKey: call.resultStepKey, file: result.output.file };
  if (result.content === undefined) return undefined;
  return { text: trim(displayBody(result.content, call.name, result.type)), from: 'result', stepKey: call.resultStepKey };
}
