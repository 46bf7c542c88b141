/**
 * What a namespace of chunked uploads is (`ChunkStore`) and how one is declared
 * (`ChunkStoreOptions`): core/chunks.ts makes one with `defineChunkStore`, whose module comment
 * tells the state it keeps and how a family uses it.
 */
import type { RecordDef } from './record.ts';
import type { SignedTx, StateReader, TxContext } from './tx/handler.ts';
import type { TxState } from './txState.ts';
import type { ChunkLimits, ChunkRef, PendingBytes, PendingChunk, Upload, UploadFacts, UploadHeader } from './upload.ts';

/** How a namespace is declared. */
export interface ChunkStoreOptions<U extends string, C extends string, P extends string> {
  /** The content store's key space for it, e.g. `blob`. */
  namespace: string;
  uploads: U;
  chunks: C;
  pending: P;
  prefixes: { uploads: string; chunks: string; pending: string };
  /** What an upload is called in messages and docs: `blob`, `file`. */
  noun: string;
  /** The upload's id field, for the protocol reference: `blobId`. */
  idField: string;
  limits: ChunkLimits;
  /** The chunk a transaction of a block carries, if it carries one of this namespace. */
  chunkOf(tx: SignedTx): ChunkRef | undefined;
  /**
   * Facts read from the bytes when an upload completes, kept on its header record (blobs: their
   * media headers, so IMAGE_MINT / AUDIO_MINT check claims without the bytes, which leave the state).
   */
  describe?(bytes: Uint8Array): UploadFacts;
}

/** A namespace of chunked uploads: its record kinds and the rules over them. */
export interface ChunkStore<U extends string = string, C extends string = string, P extends string = string> {
  readonly namespace: string;
  readonly noun: string;
  readonly limits: ChunkLimits;
  readonly UPLOADS: RecordDef<U, Upload>;
  readonly CHUNKS: RecordDef<C, PendingChunk>;
  readonly PENDING: RecordDef<P, PendingBytes>;
  readonly records: readonly [RecordDef<U, Upload>, RecordDef<C, PendingChunk>, RecordDef<P, PendingBytes>];
  chunkOf(tx: SignedTx): ChunkRef | undefined;
  /** Refuses a header that breaks the limits, names an id another account took, or exceeds the pending cap. Returns the existing upload of `from`, if any. */
  checkStart(state: StateReader, from: string, h: UploadHeader): Readonly<Upload> | undefined;
  /** Records a new pending upload and reserves its bytes against the owner's pending cap. */
  start(s: TxState, from: string, h: UploadHeader, ctx: TxContext, txHash: string): void;
  /** Refuses a chunk that is not the next piece of a pending upload of `from`; `upload` stands in for one not stored yet. */
  checkChunk(state: StateReader, from: string, c: ChunkRef, upload?: Readonly<Upload>): void;
  /** Stores a checked chunk; returns the upload as it now is. */
  putChunk(s: TxState, c: ChunkRef): Upload;
  /**
   * Refuses completion unless every chunk landed (or `last` is the missing one) and the bytes match
   * length and hash. At admission `ctx.uploadHashes` hashes incrementally (core/uploadHashes.ts).
   */
  checkComplete(state: StateReader, upload: Readonly<Upload>, last?: ChunkRef, ctx?: TxContext): void;
  /** Closes a checked upload as complete and drops its chunks from state. */
  complete(s: TxState, id: string, ctx: TxContext): void;
  /** Refuses when `from`'s pending uploads could not also declare `bytes` (a restart of a closed upload). */
  checkPendingRoom(state: StateReader, from: string, bytes: number): void;
  /**
   * Deletes an upload, pending or complete: its pending chunks leave the state, its pending bytes
   * are released, it closes as `deleted` and the content store drops its bytes. A later `start`
   * may reopen its id.
   */
  discard(s: TxState, id: string, ctx: TxContext): void;
  /** Begin-block hook: expires pending uploads past `createdAt + expiryMs`, dropping their chunks; answers them. */
  expire(s: TxState, ctx: TxContext): Upload[];
}
