/**
 * Which brain roots to read and how: from the environment, falling back to the demo home shipped in `fixtures/demo`
 * when nothing is found, so `npm run build` on a machine without Antigravity history still shows what the site is.
 *
 * With an archive store (the default; `ARCHIVE_STORE=none` turns it off) the sessions are the store's: every session
 * it ever saw, read from it (`ref.stored`), including those gone from disk; a session on disk the store does not
 * hold yet is read from its folder. `ARCHIVE_STORES` builds from those stores alone. The demo never reads a store.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { discoverSessions, discoveryOptionsFromEnv, whyNoBrainFolder } from '../brain/index.ts';
import { searchedRoot } from '../brain/discover.ts';
import type { Discovery, SessionRef } from '../brain/types.ts';
import { redactionEnabledFromEnv } from '../redact/settings.ts';
import { buildStoresFromEnv, storePathFromEnv } from '../store/location.ts';
import { listStoredSessions, type StoredSessionInfo } from '../store/read.ts';

/** The demo GEMINI_HOME, relative to the project root. */
export const DEMO_HOME = 'fixtures/demo';

/** What the build reads and how. */
export interface ArchiveInputs {
  discovery: Discovery;
  /** True when no root was found and the demo home is used instead. */
  isDemo: boolean;
  /** False when ARCHIVE_REDACT=off. */
  redactionEnabled: boolean;
  /** How the inputs were chosen, for people. */
  description: string;
  /** For the demo: why no brain folder was found, naming the path (e.g. `GEMINI_HOME=/x does not exist`). */
  noRootReason?: string;
  /** The archive store files the sessions are read from; empty when read from the folders. */
  stores: string[];
}

/** Notices for the console (the loader passes Astro's logger). */
export interface ArchiveLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Plain console output, for command-line use outside Astro. */
export const consoleLog: ArchiveLog = {
  info: (m) => console.log(m),
  warn: (m) => console.warn(m),
};

/**
 * Discover sessions as the environment says (BRAIN_ROOTS, else GEMINI_HOME, else ~/.gemini). With no root found,
 * discover the demo home instead and say so, loudly when GEMINI_HOME was set (most likely a typo), naming the path.
 */
export async function resolveArchiveInputs(
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  log: ArchiveLog = consoleLog,
): Promise<ArchiveInputs> {
  const redactionEnabled = redactionEnabledFromEnv(env);
  if (!redactionEnabled) {
    log.warn('!!! ARCHIVE_REDACT=off: secret redaction is DISABLED. Secrets in transcripts will be published as-is. !!!');
  }
  const options = discoveryOptionsFromEnv(env);
  const description = options.brainRoots
    ? `BRAIN_ROOTS=${options.brainRoots.join(':')}`
    : `GEMINI_HOME=${options.geminiHome ?? '~/.gemini'}`;
  const discovery = await discoverSessions(options);
  const buildStores = buildStoresFromEnv(env);
  if (buildStores.length > 0) {
    // Other machines' stores: their sessions only (the folders here are not read).
    return {
      discovery: { ...discovery, sessions: withStored([], listStoredSessions(buildStores)) },
      isDemo: false,
      redactionEnabled,
      description: `ARCHIVE_STORES=${buildStores.join(':')}`,
      stores: buildStores,
    };
  }
  if (discovery.roots.length > 0) {
    const store = storePathFromEnv(env);
    if (!store || !existsSync(store)) return { discovery, isDemo: false, redactionEnabled, description, stores: [] };
    return {
      discovery: { ...discovery, sessions: withStored(discovery.sessions, listStoredSessions([store])) },
      isDemo: false,
      redactionEnabled,
      description: `${description}, archive store ${store}`,
      stores: [store],
    };
  }

  const homeSet = Boolean(env.GEMINI_HOME?.trim());
  const why = await whyNoBrainFolder(options.geminiHome ?? '~/.gemini');
  const noRootReason = homeSet ? `GEMINI_HOME=${why}` : `GEMINI_HOME is unset and ${why}`;

  // The folders are gone but the store kept what they held (GEMINI_HOME deleted whole, Antigravity uninstalled):
  // build the stored archive. Only when the store holds sessions from where discovery looked, so a GEMINI_HOME typo
  // still finds nothing of its own and stops at the demo guard instead of quietly building whatever the store has.
  const store = storePathFromEnv(env);
  if (store && existsSync(store)) {
    const stored = listStoredSessions([store]);
    const fromHere = stored.filter((s) => searchedRoot(discovery, s.ref.root)).length;
    if (fromHere > 0) {
      log.warn(
        `No brain folder found (${noRootReason}). Building from the archive store ${store}: ${stored.length} sessions, ` +
          `${fromHere} of them from there and no longer on disk.`,
      );
      return {
        discovery: { ...discovery, sessions: withStored([], stored) },
        isDemo: false,
        redactionEnabled,
        description: `${description} (no brain folder), archive store ${store}`,
        stores: [store],
      };
    }
  }

  const demoHome = path.resolve(projectRoot, DEMO_HOME);
  const notice =
    `No brain folder found (${noRootReason}). Building the DEMO archive from ${DEMO_HOME}; ` +
    'set GEMINI_HOME or BRAIN_ROOTS to archive real sessions.';
  log.warn(homeSet ? `!!! ${notice} !!!` : notice);
  const demo = await discoverSessions({ geminiHome: demoHome });
  return {
    discovery: demo,
    isDemo: true,
    redactionEnabled,
    description: `demo (${DEMO_HOME}); ${description} had no brain folder`,
    noRootReason,
    stores: [],
  };
}

/** The stores' sessions, plus the folders on disk the stores do not hold (yet), newest first as discovery orders. */
function withStored(onDisk: SessionRef[], storedSessions: readonly StoredSessionInfo[]): SessionRef[] {
  // A stored session reads its conversation database where discovery found one (the store keeps the folder's files).
  const dbOnDisk = new Map(onDisk.filter((r) => r.conversationDb).map((r) => [r.id, r.conversationDb as string]));
  const stored = storedSessions.map((s) => {
    const db = dbOnDisk.get(s.ref.id);
    return db ? { ...s.ref, conversationDb: db } : s.ref;
  });
  const ids = new Set(stored.map((r) => r.id));
  return [...stored, ...onDisk.filter((r) => !ids.has(r.id))].sort((a, b) => b.mtimeMs - a.mtimeMs || a.id.localeCompare(b.id));
}
