/**
 * A session's message thread grouped by sender, with counts: who wrote to the session (the user, the system,
 * another session, one of its background tasks) and what they wrote, titles counted (a cron task's 229
 * `Cron trigger #…` messages are one line). Pure: no `astro:*`, no HTML.
 */
import type { Message } from '../brain/types.ts';
import { parseTaskSender } from './background-tasks.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` is a session id (a UUID as Antigravity writes them). */
export function isSessionId(value: string | undefined): value is string {
  return value !== undefined && UUID.test(value);
}

/** What kind of sender a message has. */
export type SenderKind = 'user' | 'system' | 'session' | 'task' | 'other';

/** One sender of a session's messages. */
export interface SenderGroup {
  sender: string;
  kind: SenderKind;
  /** The other session, for `session` senders, and the session owning the task, for `task` senders. */
  sessionId?: string;
  /** The task number, for `task` senders. */
  taskNumber?: number;
  count: number;
  hidden: number;
  firstAt?: string;
  lastAt?: string;
  /** Titles with their counts, most frequent first; running numbers (`#12`) set aside. */
  titles: { title: string; count: number }[];
}

function kindOf(sender: string): Pick<SenderGroup, 'kind' | 'sessionId' | 'taskNumber'> {
  if (sender === 'user') return { kind: 'user' };
  if (sender === 'system') return { kind: 'system' };
  const task = parseTaskSender(sender);
  if (task) return { kind: 'task', sessionId: task.sessionId, taskNumber: task.number };
  if (isSessionId(sender)) return { kind: 'session', sessionId: sender.toLowerCase() };
  return { kind: 'other' };
}

/**
 * Every sender of `messages`, in order: the user, the system, other sessions, then background tasks by number,
 * then anything else. Each with its message count, hidden count, first and last time, and titles counted.
 */
export function groupBySender(messages: readonly Message[]): SenderGroup[] {
  const bySender = new Map<string, SenderGroup & { titleCounts: Map<string, number> }>();
  for (const m of messages) {
    const sender = m.sender ?? '(no sender)';
    let g = bySender.get(sender);
    if (!g) {
      g = { sender, ...kindOf(sender), count: 0, hidden: 0, titles: [], titleCounts: new Map() };
      bySender.set(sender, g);
    }
    g.count++;
    if (m.hidden) g.hidden++;
    if (m.timestamp) {
      if (!g.firstAt || m.timestamp < g.firstAt) g.firstAt = m.timestamp;
      if (!g.lastAt || m.timestamp > g.lastAt) g.lastAt = m.timestamp;
    }
    const title = (m.title ?? '(no title)').replace(/#\d+\s*$/, '#…');
    g.titleCounts.set(title, (g.titleCounts.get(title) ?? 0) + 1);
  }
  const order: Record<SenderKind, number> = { user: 0, system: 1, session: 2, task: 3, other: 4 };
  return [...bySender.values()]
    .map(({ titleCounts, ...g }) => ({
      ...g,
      titles: [...titleCounts].map(([title, count]) => ({ title, count })).sort((a, b) => b.count - a.count || a.title.localeCompare(b.title)),
    }))
    .sort((a, b) => order[a.kind] - order[b.kind] || (a.taskNumber ?? 0) - (b.taskNumber ?? 0) || a.sender.localeCompare(b.sender));
}
