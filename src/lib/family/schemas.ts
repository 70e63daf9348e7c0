/**
 * The shapes of what each session's entry keeps about the sessions it belongs with (strict, lean): the subagents its
 * own files say it started, and the parent its own transcript names. The tree over every session is built from these
 * once per build (`tree.ts`). Plain zod from `astro/zod`.
 */
import { z } from 'astro/zod';

/**
 * What a link between two sessions was derived from:
 * - `invoke_subagent`: the parent's `invoke_subagent` call, whose result names the child's conversation id;
 * - `subagent-message`: a message in the parent from the child, titled `Message from <role> (<type>)`;
 * - `subagent-error`: a system message in the parent, `The subagent <role> (<type>) with id "<child>" encountered an error…`;
 * - `opening-message`: the child's first step (step 0) is a message whose `sender=` is the parent.
 */
export const LinkSourceSchema = z.enum(['invoke_subagent', 'subagent-message', 'subagent-error', 'opening-message']);

/** How a subagent ended, as far as the parent's own files say. */
export const SubagentEndingSchema = z.object({
  /** `failed`: an error message or an error result; `reported`: it sent a message; `finished`: the result says so; `started`: nothing after the start. */
  status: z.enum(['failed', 'reported', 'finished', 'started']),
  /** One line: the error, or the first line of its last message or result. */
  line: z.string(),
  /** When (ISO), when known. */
  at: z.string().optional(),
});

/** One subagent a session's own files say it started. */
export const SubagentClaimSchema = z.object({
  /** The child's session id; absent when the call's result names none (the child cannot be linked). */
  childId: z.string().optional(),
  /** Every kind of evidence seen, strongest first. */
  derivedFrom: z.array(LinkSourceSchema),
  /** Key and index of the step holding the `invoke_subagent` call, when one names the child. */
  stepKey: z.string().optional(),
  stepIndex: z.number().optional(),
  /** Position of the subagent in that call's list (0-based). */
  agentIndex: z.number().optional(),
  /** `TypeName` of the call, or the type in a message title (`teamwork_preview`, `self`, `browser`). */
  type: z.string().optional(),
  /** `Role` of the call, or the role in a message title. */
  role: z.string().optional(),
  /** The call's `Prompt`, cut at `PROMPT_MAX`. */
  prompt: z.string().optional(),
  /** Messages the child sent to this session, and error notices about it. */
  messages: z.number(),
  errors: z.number(),
  /** Time of the first and the last evidence (ISO). */
  firstAt: z.string().optional(),
  lastAt: z.string().optional(),
  ending: SubagentEndingSchema,
});

/** The parent a session's own transcript names. */
export const ParentClaimSchema = z.object({
  parentId: z.string(),
  derivedFrom: LinkSourceSchema,
  /** The step naming it. */
  stepKey: z.string(),
});

/** What one session's files say about the sessions it belongs with. */
export const FamilyEvidenceSchema = z.object({
  subagents: z.array(SubagentClaimSchema),
  parent: ParentClaimSchema.optional(),
  /** Background tasks (`<id>/task-N`) of the session: announced, messaging or logged. */
  backgroundTasks: z.number(),
});

export type LinkSource = z.infer<typeof LinkSourceSchema>;
export type SubagentEnding = z.infer<typeof SubagentEndingSchema>;
export type SubagentClaim = z.infer<typeof SubagentClaimSchema>;
export type ParentClaim = z.infer<typeof ParentClaimSchema>;
export type FamilyEvidence = z.infer<typeof FamilyEvidenceSchema>;

/** How each kind of evidence reads on a page. */
export const LINK_SOURCE_LABELS: Record<LinkSource, string> = {
  invoke_subagent: 'the invoke_subagent result names its conversation id',
  'subagent-message': 'messages it sent, titled with its role',
  'subagent-error': 'an error notice naming its id',
  'opening-message': 'its first step is a message from the parent',
};
