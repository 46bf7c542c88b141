/**
 * Web drive files, on the generic chunked-upload store (core/chunks.ts, namespace `file`):
 * WEB_FILE_INIT reserves `totalBytes` of the owner's storage, WEB_FILE_CHUNK lands chunks in any
 * order, WEB_FILE_FINALIZE completes the file once its length and SHA-256 match, and
 * WEB_FILE_DELETE frees exactly the reserved bytes (as does an upload that expires). An INIT of a
 * fileId that is uploading or complete (an identical file: same site, path and content) changes
 * nothing and costs nothing.
 */
import { defineChunkStore, type ChunkRef, type Upload, type UploadHeader } from '../../chunks.ts';
import type { TxState } from '../../txState.ts';
import { feeOf, isTx, payFee, refuse, txHandler, type SignedTx, type StateReader, type TxContext } from '../handler.ts';
import { WEB_FILE_CHUNK, WEB_FILE_DELETE, WEB_FILE_FINALIZE, WEB_FILE_INIT, WEB_FILE_LIMITS } from './storage.ts';
import { fileIdOf, manifestLookup, ownedSite, webPathProblem, WEB_FILES, WEB_RELEASES, type WebFile } from './webRecords.ts';

/** The chunk a transaction carries into the file store, if any. */
function fileChunkOf(tx: SignedTx): ChunkRef | undefined {
  return isTx(tx, WEB_FILE_CHUNK) ? { id: tx.fileId, index: tx.chunkIndex, data: tx.dataBase64 } : undefined;
}

/** The file store: `fu:<fileId>` upload headers, `fc:<fileId>:<index>` pending chunks, `fp:<address>` pending bytes. */
export const FILES = defineChunkStore({
  namespace: 'file',
  uploads: 'webUploads',
  chunks: 'webChunks',
  pending: 'webPending',
  prefixes: { uploads: 'fu', chunks: 'fc', pending: 'fp' },
  noun: 'file',
  idField: 'fileId',
  limits: WEB_FILE_LIMITS,
  chunkOf: fileChunkOf,
});

/** An upload that holds (or will hold) its bytes: its reservation stands. */
const live = (u: Readonly<Upload> | undefined): u is Readonly<Upload> => u?.status === 'pending' || u?.status === 'complete';

/** A drive file as readers see it: where it lives and its upload (header, status, progress). */
export type DriveFile = WebFile & Omit<Upload, 'id'>;

/** The drive file `fileId`, or undefined when no INIT named it. */
export function driveFile(state: StateReader, fileId: string): DriveFile | undefined {
  const file = state.get(WEB_FILES, fileId);
  const u = state.get(FILES.UPLOADS, fileId);
  if (!file || !u) return undefined;
  const { id: _id, ...upload } = u;
  return { ...file, ...upload };
}

const headerOf = (
  tx: { contentType: string; totalBytes: number; totalChunks: number; contentHash: string },
  fileId: string,
): UploadHeader => ({
  id: fileId,
  contentType: tx.contentType,
  totalBytes: tx.totalBytes,
  totalChunks: tx.totalChunks,
  contentHash: tx.contentHash,
});

const initFileId = (tx: { siteId: string; path: string; contentHash: string }) => fileIdOf(tx.siteId, tx.path, tx.contentHash);

/** WEB_FILE_INIT: reserves the bytes of a new file, or nothing for an identical one already there. */
const fileInit = txHandler(WEB_FILE_INIT, {
  cost: (tx, state) => ({
    balance: feeOf(tx),
    storage: state && live(state.get(FILES.UPLOADS, initFileId(tx))) ? 0n : BigInt(tx.totalBytes),
  }),
  check(tx, state) {
    ownedSite(state, tx.siteId, tx.from);
    const problem = webPathProblem(tx.path);
    if (problem) refuse(`path ${problem}`);
    const h = headerOf(tx, initFileId(tx));
    const existing = FILES.checkStart(state, tx.from, h);
    if (live(existing)) {
      if (existing.contentType !== h.contentType || existing.totalBytes !== h.totalBytes)
        refuse(`file ${h.id} exists as ${existing.contentType} of ${existing.totalBytes} bytes`);
      if (existing.status === 'pending' && existing.totalChunks !== h.totalChunks)
        refuse(`file ${h.id} is being uploaded in ${existing.totalChunks} chunks`);
    } else if (existing) FILES.checkPendingRoom(state, tx.from, h.totalBytes);
  },
  apply(tx, s, ctx) {
    const fileId = initFileId(tx);
    if (!live(s.get(FILES.UPLOADS, fileId))) {
      FILES.start(s, tx.from, headerOf(tx, fileId), ctx, tx.hash);
      if (!s.get(WEB_FILES, fileId)) s.put(WEB_FILES, fileId, { fileId, siteId: tx.siteId, path: tx.path });
      s.account(tx.from).storageUsed += BigInt(tx.totalBytes);
    }
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** WEB_FILE_CHUNK: one chunk of a file being uploaded by its owner. */
const fileChunk = txHandler(WEB_FILE_CHUNK, {
  check: (tx, state) => FILES.checkChunk(state, tx.from, { id: tx.fileId, index: tx.chunkIndex, data: tx.dataBase64 }),
  apply(tx, s, ctx) {
    FILES.putChunk(s, { id: tx.fileId, index: tx.chunkIndex, data: tx.dataBase64 });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** The upload of `fileId` when `from` owns it. */
function ownUpload(state: StateReader, fileId: string, from: string): Readonly<Upload> {
  const u = state.get(FILES.UPLOADS, fileId);
  if (!u) refuse(`file ${fileId} was not started`);
  if (u.owner !== from) refuse(`file ${fileId} belongs to ${u.owner}`);
  return u;
}

/** WEB_FILE_FINALIZE: completes a file whose chunks all landed with the declared length and hash. */
const fileFinalize = txHandler(WEB_FILE_FINALIZE, {
  check: (tx, state, ctx) => FILES.checkComplete(state, ownUpload(state, tx.fileId, tx.from), undefined, ctx),
  apply(tx, s, ctx) {
    FILES.complete(s, tx.fileId, ctx);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** WEB_FILE_DELETE: frees the file's bytes, refused while the site's active release names it. */
const fileDelete = txHandler(WEB_FILE_DELETE, {
  check(tx, state) {
    const file = driveFile(state, tx.fileId);
    if (!file || !live(state.get(FILES.UPLOADS, tx.fileId))) refuse(`file ${tx.fileId} does not exist`);
    const site = ownedSite(state, file.siteId, tx.from);
    const active = site.activeReleaseId ? state.get(WEB_RELEASES, site.activeReleaseId) : undefined;
    if (active && manifestLookup(active.manifest, file.path) === file.fileId)
      refuse(`file ${tx.fileId} is in the active release ${active.releaseId} of site ${site.siteId}`);
  },
  apply(tx, s, ctx) {
    const u = ownUpload(s, tx.fileId, tx.from);
    FILES.discard(s, tx.fileId, ctx);
    s.account(u.owner).storageUsed -= BigInt(u.totalBytes);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** Begin-block: file uploads past their expiry close, their chunks dropped and their bytes freed. */
export function expireFiles(s: TxState, ctx: TxContext): void {
  for (const u of FILES.expire(s, ctx)) s.account(u.owner).storageUsed -= BigInt(u.totalBytes);
}

/** The file types, in the spec's order around the release types (see core/tx/web/drive.ts). */
export const fileHandlers = { fileInit, fileChunk, fileFinalize, fileDelete };
