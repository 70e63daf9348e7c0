/**
 * The turn builder (pure, no Astro): a session's merged steps read as a conversation. See `types.ts` for the
 * shapes and `build.ts` for `buildTurns`.
 */
export { buildTurns, sessionTurns, callLine, failedCallLine, IDLE_GAP_MS, OUTPUT_HEAD_MAX, STEP_SUMMARY_MAX } from './build.ts';
export { outcomeOf, orphanOutcome, toolKind, stepFailed, errorText, shortTask } from './outcome.ts';
export {
  failureMessage,
  failureLine,
  callFailureMessage,
  isErrorStep,
  isFailedCall,
  isFailedOrphan,
  stepFailure,
  sessionFailureCounts,
  failureWords,
  FAILURE_DEFINITIONS,
  type FailureCounts,
  type StepFailure,
} from './failures.ts';
export { pairCalls, isResultStep, isUserAction, NOT_RESULT_TYPES } from './pairing.ts';
export { modelChainSummary, modelsPerStep, modelSequence, modelSwitches, UNKNOWN_MODEL } from './models.ts';
export { displayBody, splitTransport, readCommandText, readViewText, readEditText, readUserAction } from './transport.ts';
export { requestText, checkpointText, mentions } from './text.ts';
export { foldedKind, harnessNote, leftOutOfSearch, systemMessageWords } from './harness.ts';
export { callOutput, type CallOutput } from './output.ts';
export type * from './types.ts';
