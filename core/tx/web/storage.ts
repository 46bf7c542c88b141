/**
 * Storage capacity and the web drive: the schemas of STORAGE_TRANSFER and the WEB_* types. Their
 * rules live in core/tx/web/drive.ts (the family), webSites.ts and webFiles.ts.
 */
import { f, defineTx } from '../../schema.ts';

/** Bounds of drive files (core/chunks.ts): chunks of 1..400,000 bytes, files of at most 64 MiB in 100,000 chunks. */
export const WEB_FILE_LIMITS = {
  maxChunkBytes: 400_000,
  maxChunks: 100_000,
  maxTotalBytes: 64 * 1024 * 1024,
  /** Most bytes one account's unfinished uploads may declare at once (their chunks wait in state). */
  maxPendingBytes: 64 * 1024 * 1024,
  /** An upload unfinished a day after its INIT expires: chunks dropped, bytes freed. */
  expiryMs: 86_400_000,
} as const;

const siteId = () => f.id(64, 3);
const filePath = () => f.pattern(/^\/[\x21-\x7e]{0,511}$/, 'a path `/...` of printable ASCII, at most 512 characters');
const common = { fee: f.amount(), nonce: f.uint(), timestamp: f.uint() };

export const STORAGE_TRANSFER = defineTx({
  type: 'STORAGE_TRANSFER',
  family: 'storage',
  fork: 1,
  doc: 'Moves `bytes` of free storage capacity (capacity - used) from the sender to `to`.',
  fields: { from: f.address(), to: f.address(), bytes: { ...f.amount(), doc: 'big integer string, bytes of storage' }, ...common },
  moneyFlow: '`bytes` of storage capacity move from `from` to `to` (no funds); `fee` moves from `from` to the block proposer.',
});

export const WEB_SITE_REGISTER = defineTx({
  type: 'WEB_SITE_REGISTER',
  family: 'storage',
  fork: 1,
  doc: 'Creates a web drive owned by the sender, once per `siteId`.',
  fields: { from: f.address(), siteId: siteId(), name: f.text(128, 1), ...common },
  moneyFlow: '`fee` moves from `from` to the block proposer; the site is recorded, owned by `from`.',
});

export const WEB_FILE_INIT = defineTx({
  type: 'WEB_FILE_INIT',
  family: 'storage',
  fork: 1,
  doc: 'Starts a file upload; fileId = SHA-256(siteId + path + contentHash). Reserves `totalBytes` of storage (400 INSUFFICIENT_STORAGE beyond the free capacity); an identical file that is uploading or complete costs nothing and needs no chunks.',
  fields: {
    from: f.address(),
    siteId: siteId(),
    path: filePath(),
    contentType: f.pattern(/^[a-z0-9.+-]{1,64}\/[a-z0-9.+-]{1,64}$/, 'a MIME type `type/subtype` (lowercase, each part at most 64)'),
    totalBytes: f.uint(WEB_FILE_LIMITS.maxTotalBytes, 1),
    totalChunks: f.uint(WEB_FILE_LIMITS.maxChunks, 1),
    contentHash: f.hex(64),
    ...common,
  },
  moneyFlow:
    "`fee` (0 allowed) moves from `from` to the block proposer; `totalBytes` join `from`'s `storageUsed` (nothing when the identical file is uploading or complete).",
});

export const WEB_FILE_CHUNK = defineTx({
  type: 'WEB_FILE_CHUNK',
  family: 'storage',
  fork: 1,
  doc: 'One chunk of a file, canonical base64 of 1..400,000 bytes, in any order.',
  fields: {
    from: f.address(),
    fileId: f.hex(64),
    chunkIndex: f.uint(WEB_FILE_LIMITS.maxChunks - 1),
    dataBase64: f.base64(WEB_FILE_LIMITS.maxChunkBytes, 1),
    ...common,
  },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});

export const WEB_FILE_FINALIZE = defineTx({
  type: 'WEB_FILE_FINALIZE',
  family: 'storage',
  fork: 1,
  doc: 'Completes a file once every chunk landed: refused unless its bytes are totalBytes long with SHA-256 contentHash.',
  fields: { from: f.address(), fileId: f.hex(64), ...common },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});

export const WEB_RELEASE_PUBLISH = defineTx({
  type: 'WEB_RELEASE_PUBLISH',
  family: 'storage',
  fork: 1,
  doc: 'Publishes an immutable release: a manifest of path to fileId and its Merkle root.',
  fields: {
    from: f.address(),
    siteId: siteId(),
    releaseId: f.id(64, 1),
    manifest: f.list(10_000, { path: filePath(), fileId: f.hex(64) }),
    merkleRoot: f.hex(64),
    ...common,
  },
  moneyFlow: '`fee` moves from `from` to the block proposer; no storage moves (the files hold it).',
});

export const WEB_RELEASE_ACTIVATE = defineTx({
  type: 'WEB_RELEASE_ACTIVATE',
  family: 'storage',
  fork: 1,
  doc: 'Points the site at one of its releases (an older one is a rollback).',
  fields: { from: f.address(), siteId: siteId(), releaseId: f.id(64, 1), ...common },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});

export const WEB_FILE_DELETE = defineTx({
  type: 'WEB_FILE_DELETE',
  family: 'storage',
  fork: 1,
  doc: 'Deletes a file and frees its bytes.',
  fields: { from: f.address(), fileId: f.hex(64), ...common },
  moneyFlow: "`fee` moves from `from` to the block proposer; the file's `totalBytes` leave `from`'s `storageUsed`.",
});

export const WEB_ALIAS_SET = defineTx({
  type: 'WEB_ALIAS_SET',
  family: 'storage',
  fork: 1,
  doc: 'Serves a site under a DNS-style alias.',
  fields: {
    from: f.address(),
    siteId: siteId(),
    alias: f.pattern(/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/, 'a DNS label of 3-63 characters'),
    ...common,
  },
  moneyFlow: '`fee` moves from `from` to the block proposer.',
});
