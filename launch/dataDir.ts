/**
 * Opening a stopped node's data dir for an offline command (`replay`, `snapshot export`, `keys
 * create`, ...): the checks, the operator's messages, and closing afterwards, written once.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ForkHeights } from '../core/genesis.ts';
import { ChainStore } from '../node/store/chainStore.ts';
import { OmbraNode } from '../node/node.ts';
import { LogIntegrityError } from '../node/store/storeDamage.ts';
import { errorChain, errorCode } from '../core/errors.ts';

/** A fault the operator must fix (exit 1, no help). */
export class CliFault extends Error {}

/** The LevelDB directory inside a data dir. */
export function dbDirOf(dataDir: string): string {
  return join(dataDir, 'db');
}

/**
 * Creates the data dir 0700 (whatever the umask) and takes group and other access from what is in
 * it already: a dir made by an older version or under umask 022 held the database, the webhook
 * signing secrets and the peer key readable by every user of the machine. Entries another user
 * owns are left alone (chmod would fail; the operator sees them in `ombra audit`).
 */
export function secureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  const walk = (path: string): void => {
    const st = lstatSync(path);
    if (st.isSymbolicLink() || (uid !== undefined && st.uid !== uid)) return;
    if ((st.mode & 0o077) !== 0) chmodSync(path, st.mode & 0o700);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dataDir);
}

/**
 * The key webhook signing secrets are sealed with at rest (services/alerts/secretSeal.ts):
 * `DATA_DIR/secrets.key`, 64 hex characters, created 0600 on first start. Kept beside the database
 * but not in it, so a copy of `db/` alone (a backup, a snapshot) holds no usable secret; losing
 * it loses the webhook secrets (their owners rotate them).
 */
export function loadOrCreateSecretsKey(dataDir: string): Buffer {
  const file = join(dataDir, 'secrets.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // Another process made it first: read theirs.
      if (errorCode(e) !== 'EEXIST') throw e;
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new CliFault(
      `${resolve(file)} is not a secrets key (64 hex characters): restore it, or remove it and rotate every webhook secret`,
    );
  return Buffer.from(text, 'hex');
}

/** True for LevelDB's "another process holds the lock" failure. */
function isLevelLocked(e: unknown): boolean {
  return errorChain(e).some((x) => errorCode(x) === 'LEVEL_LOCKED');
}

/** Refuses a data dir that has no chain database, without creating one. */
function requireChainDir(dataDir: string): string {
  const dbDir = dbDirOf(dataDir);
  if (!existsSync(join(dbDir, 'CURRENT')))
    throw new CliFault(`no chain in ${resolve(dataDir)}: it has no database (expected ${join(dbDir, 'CURRENT')})`);
  return dbDir;
}

/** Turns LevelDB's lock failure into the operator's message. */
export function explainOpenError(e: unknown, dataDir: string): unknown {
  if (isLevelLocked(e)) return new CliFault(`data dir ${resolve(dataDir)} is in use by a running node; stop it first`);
  return e;
}

/**
 * Opens the block log of an existing chain data dir. A missing or damaged head pointer is the
 * operator's one-line LogIntegrityError, unless `headless` (the repair, which rebuilds it).
 */
export async function openExistingStore(dataDir: string, opts: { headless?: boolean } = {}): Promise<ChainStore> {
  const dbDir = requireChainDir(dataDir);
  let store: ChainStore;
  try {
    store = await ChainStore.open(dbDir);
  } catch (e) {
    throw explainOpenError(e, dataDir);
  }
  const pointerFault = !store.head() && store.damage;
  if (pointerFault && !opts.headless) {
    await store.close();
    throw new LogIntegrityError(pointerFault, dataDir);
  }
  if ((!store.head() && !pointerFault) || !(await store.genesis())) {
    await store.close();
    throw new CliFault(`no chain in ${resolve(dataDir)}: its database has no genesis`);
  }
  return store;
}

/** Opens the node of an existing chain data dir (read models caught up). */
export async function openExistingNode(dataDir: string, forkOverrides: Partial<ForkHeights>): Promise<OmbraNode> {
  const dbDir = requireChainDir(dataDir);
  try {
    return await OmbraNode.open({ dbDir, forkOverrides });
  } catch (e) {
    throw explainOpenError(e, dataDir);
  }
}

/**
 * Runs `fn` on what `open` opened, then closes it (a store) or stops it (a node); a CliFault from either prints
 * `ombra <command>: <why>` and answers exit code 1.
 */
export async function withDataDir<T extends { close(): Promise<void> } | { stop(): Promise<void> }>(
  command: string,
  open: () => Promise<T>,
  fn: (opened: T) => Promise<number>,
): Promise<number> {
  try {
    const opened = await open();
    try {
      return await fn(opened);
    } finally {
      await ('stop' in opened ? opened.stop() : opened.close());
    }
  } catch (e) {
    if (e instanceof CliFault) {
      process.stderr.write(`ombra ${command}: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
