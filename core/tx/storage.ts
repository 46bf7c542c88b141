/**
 * Storage capacity and the web drive: the schemas of STORAGE_TRANSFER and the WEB_* types. Their
 * rules live in core/tx/drive.ts (the family), webSites.ts and webFiles.ts.
 */
import { f, defineTx } from '../schema.ts';

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
  doc: 'Starts a file upload; fileId = SHA-256(siteId + path + contentHash). Reserves `totalBytes` of storage.',
  fields: {
    from: f.address(),
    siteId: siteId(),
    path: filePath(),
    contentType: f.pattern(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/, 'a MIME type'),
    totalBytes: f.uint(),
    totalChunks: f.uint(100_000, 1),
    contentHash: f.hex(64),
    ...common,
  },
});

export const WEB_FILE_CHUNK = defineTx({
  type: 'WEB_FILE_CHUNK',
  family: 'storage',
  fork: 1,
  doc: 'One chunk of a file, base64, at most 400,000 bytes decoded.',
  fields: {
    from: f.address(),
    fileId: f.hex(64),
    chunkIndex: f.uint(99_999),
    dataBase64: f.pattern(/^[A-Za-z0-9+/]{0,533336}={0,2}$/, 'base64 of at most 400,000 bytes'),
    ...common,
  },
});

export const WEB_FILE_FINALIZE = defineTx({
  type: 'WEB_FILE_FINALIZE',
  family: 'storage',
  fork: 1,
  doc: 'Completes a file once every chunk landed and the content hash matches.',
  fields: { from: f.address(), fileId: f.hex(64), ...common },
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
