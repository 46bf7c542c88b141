/**
 * `ombra drive push`'s work: one folder becomes one release of a site, through the typed client.
 * Steps, each waiting for the chain before the next (the node checks every step against the
 * chain's state): register the site if new; WEB_FILE_INIT the files the drive does not hold
 * (a file already complete or uploading under the same fileId, i.e. same site, path and bytes,
 * costs nothing and is not sent again); their chunks, in block-sized batches, with a progress
 * bar; WEB_FILE_FINALIZE; WEB_RELEASE_PUBLISH (the release id derives from the site and the
 * manifest's root, so pushing unchanged content publishes nothing new); WEB_RELEASE_ACTIVATE;
 * WEB_ALIAS_SET when asked.
 */
import { OmbraApiError, type OmbraClient, type Wallet } from '../../client/index.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { WEB_FILE_LIMITS } from '../../core/tx/web/storage.ts';
import { base64Length, chunkContent } from '../../core/upload.ts';
import { manifestOf, releaseIdOf, type LocalFile } from './driveFiles.ts';
import { progress } from '../progress.ts';

/** What a push needs. */
export interface PushOptions {
  client: OmbraClient;
  wallet: Wallet;
  siteId: string;
  /** The site's name when it must be registered. */
  name: string;
  files: LocalFile[];
  alias?: string;
  fee: string;
  /** Per-step confirmation deadline. */
  timeoutMs: number;
  /** Progress lines or bar go here. */
  stream?: NodeJS.WriteStream;
  say(line: string): void;
}

/** What a push did. */
export interface PushResult {
  releaseId: string;
  merkleRoot: string;
  uploaded: string[];
  unchanged: string[];
  bytesSent: number;
  published: boolean;
  activated: boolean;
  aliasSet: boolean;
}

/** Most transaction bytes sent before waiting for them to land (below a block's 3 MiB). */
const BATCH_BYTES = 2_500_000;
/** Most transactions sent before waiting (below the mempool's per-sender cap). */
const BATCH_TXS = 48;

/** A file cut into the chunks it is uploaded in (400,000 bytes each, the last one shorter). */
const chunksOf = (file: LocalFile) => chunkContent(file.bytes, WEB_FILE_LIMITS.maxChunkBytes).chunks;

/** Pushes `files` as one release of the site and activates it. */
export async function drivePush(o: PushOptions): Promise<PushResult> {
  const { client, wallet, siteId } = o;
  const send = async (type: string, body: Record<string, unknown>): Promise<SignedTx> =>
    (await wallet.send(type, { ...body, fee: o.fee })).tx;
  const landed = (tx: SignedTx | undefined) => (tx ? client.waitForConfirmation(tx.hash, o.timeoutMs) : undefined);

  let site = await client.webSite(siteId);
  if (!site) {
    o.say(`registering site ${siteId}`);
    await landed(await send('WEB_SITE_REGISTER', { siteId, name: o.name }));
    site = await client.webSite(siteId);
    if (!site) throw new Error(`site ${siteId} is not readable after its registration`);
  }
  if (site.owner !== wallet.address) throw new Error(`site ${siteId} belongs to ${site.owner}, not ${wallet.address}`);

  // What the drive holds of each file decides what is sent.
  const uploads: { file: LocalFile; chunks: string[] }[] = [];
  const unchanged: string[] = [];
  let last: SignedTx | undefined;
  for (const file of o.files) {
    const info = await client.webFile(file.fileId);
    if (info?.status === 'complete') {
      unchanged.push(file.path);
      continue;
    }
    const chunks = chunksOf(file);
    if (info?.status === 'pending') {
      // An upload this command started before: its remaining chunks are sent.
      if (info.totalChunks !== chunks.length)
        throw new Error(`file ${file.path} is being uploaded in other chunks: delete ${file.fileId} first`);
      uploads.push({ file, chunks });
      continue;
    }
    const init = {
      siteId,
      path: file.path,
      contentType: file.contentType,
      totalBytes: file.bytes.length,
      totalChunks: chunks.length,
      contentHash: file.contentHash,
    };
    // An INIT claims a file: from fork 7 it pays the claim fee, so it goes with --fee like the rest.
    last = (await wallet.send('WEB_FILE_INIT', { ...init, fee: o.fee })).tx;
    uploads.push({ file, chunks });
  }
  await landed(last);

  const total = uploads.reduce((n, u) => n + u.file.bytes.length, 0);
  let bytesSent = 0;
  if (uploads.length > 0) {
    o.say(`uploading ${uploads.length} file(s), ${total} bytes (${unchanged.length} unchanged)`);
    const bar = progress('uploading', total, { unit: 'bytes', stream: o.stream });
    let batchBytes = 0;
    let batchTxs = 0;
    let inBatch = 0;
    last = undefined;
    for (const { file, chunks } of uploads) {
      for (let chunkIndex = 0; chunkIndex < chunks.length; chunkIndex++) {
        const dataBase64 = chunks[chunkIndex];
        try {
          last = await send('WEB_FILE_CHUNK', { fileId: file.fileId, chunkIndex, dataBase64 });
        } catch (e) {
          // A resumed upload: the chunks that landed before are refused as such, and are fine.
          if (!(e instanceof OmbraApiError && /already landed/.test(e.message))) throw e;
        }
        inBatch += base64Length(dataBase64);
        batchBytes += dataBase64.length + 400;
        if (++batchTxs >= BATCH_TXS || batchBytes >= BATCH_BYTES) {
          await landed(last);
          bytesSent += inBatch;
          bar.update(bytesSent);
          batchBytes = batchTxs = inBatch = 0;
          last = undefined;
        }
      }
    }
    await landed(last);
    bytesSent += inBatch;
    bar.update(bytesSent);
    bar.stop();
    last = undefined;
    for (const { file } of uploads) last = await send('WEB_FILE_FINALIZE', { fileId: file.fileId });
    await landed(last);
  }

  const { manifest, merkleRoot } = manifestOf(o.files);
  const releaseId = releaseIdOf(siteId, merkleRoot);
  let published = false;
  try {
    await landed(await send('WEB_RELEASE_PUBLISH', { siteId, releaseId, manifest, merkleRoot }));
    published = true;
  } catch (e) {
    // The same content was published before: activate that release.
    if (!(e instanceof OmbraApiError && e.message === `release ${releaseId} already exists`)) throw e;
  }
  site = (await client.webSite(siteId)) ?? site;
  const activated = site.activeReleaseId !== releaseId;
  if (activated) await landed(await send('WEB_RELEASE_ACTIVATE', { siteId, releaseId }));
  // Setting an alias again is harmless (first come: only its owner may); it may point elsewhere now.
  const aliasSet = o.alias !== undefined;
  if (o.alias) await landed(await send('WEB_ALIAS_SET', { siteId, alias: o.alias }));
  return { releaseId, merkleRoot, uploaded: uploads.map((u) => u.file.path), unchanged, bytesSent, published, activated, aliasSet };
}
