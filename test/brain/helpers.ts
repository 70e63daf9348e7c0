import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const casesDir = path.join(projectRoot, 'fixtures/cases');

export const caseId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Read the one session of a fixture case (a GEMINI_HOME). */
export async function readCase(name: string, home = path.join(casesDir, name)): Promise<Session> {
  const d = await discoverSessions({ geminiHome: home });
  const ref = d.sessions[0];
  if (!ref || d.sessions.length !== 1) throw new Error(`case ${name}: expected one session, found ${d.sessions.length}`);
  return readSession(ref);
}

export const keys = (s: Session) => s.steps.map((st) => st.key);
export const where = (s: Session) => s.problems.map((p) => `${p.kind} ${p.file}${p.line !== undefined ? `:${p.line}` : ''}`);

/**
 * A shared real-data home (`real-brains`, `real-eras`) as a GEMINI_HOME: beside the main checkout (`../shared`) or
 * beside a worktree's folder (`../../shared`); undefined when absent, so a test can skip.
 */
export function sharedHome(name: string): string | undefined {
  return ['..', '../..'].map((up) => path.resolve(projectRoot, up, 'shared', name, 'gemini')).find((p) => existsSync(p));
}

/** Every session of a home, read (none for an absent home). */
export async function readHome(home: string | undefined): Promise<Session[]> {
  if (!home) return [];
  const d = await discoverSessions({ geminiHome: home });
  return Promise.all(d.sessions.map((ref) => readSession(ref)));
}
