/**
 * The storage family: mined storage capacity (STORAGE_TRANSFER; the proposer's credit is in
 * core/applyBlock.ts) and the web drive (WEB_* in webSites.ts and webFiles.ts).
 */
import { STORAGE_QUOTA_PER_BLOCK } from '../../genesis.ts';
import { defineFamily } from '../family.ts';
import { feeOf, payFee, refuse, txHandler } from '../handler.ts';
import { STORAGE_TRANSFER } from './storage.ts';
import { expireFiles, fileHandlers, FILES } from './webFiles.ts';
import { WEB_ALIASES, WEB_FILES, WEB_RELEASES, WEB_SITES } from './webRecords.ts';
import { aliasSet, releaseActivate, releasePublish, siteRegister } from './webSites.ts';

const storageTransfer = txHandler(STORAGE_TRANSFER, {
  cost: (tx) => ({ balance: feeOf(tx), storage: BigInt(tx.bytes) }),
  check(tx) {
    if (BigInt(tx.bytes) === 0n) refuse('bytes must be positive');
  },
  apply(tx, s, ctx) {
    const bytes = BigInt(tx.bytes);
    s.account(tx.from).storageCapacity -= bytes;
    s.account(tx.to).storageCapacity += bytes;
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** Storage capacity and the web drive (the spec lists STORAGE_TRANSFER after the WEB_* types). */
export const storageFamily = defineFamily({
  name: 'storage',
  handlers: [
    siteRegister,
    fileHandlers.fileInit,
    fileHandlers.fileChunk,
    fileHandlers.fileFinalize,
    releasePublish,
    releaseActivate,
    fileHandlers.fileDelete,
    aliasSet,
    storageTransfer,
  ],
  records: [WEB_SITES, WEB_FILES, WEB_RELEASES, WEB_ALIASES, ...FILES.records],
  chunkStores: [FILES],
  beginBlock: {
    doc: "A drive file upload still unfinished a day after its WEB_FILE_INIT expires: its chunks leave the state and its `totalBytes` leave the owner's `storageUsed`.",
    run: expireFiles,
  },
  docSections: () => [
    '### Storage and the web drive',
    '',
    `- Every block credits its proposer ${STORAGE_QUOTA_PER_BLOCK} bytes of \`storageCapacity\`, after its transactions. \`storageUsed\` is the sum of \`totalBytes\` of the account's files that are not deleted; \`storageCapacity - storageUsed\` is free and is what STORAGE_TRANSFER moves.`,
    '- fileId = SHA-256(siteId + path + contentHash). A file path is `/` + segments of printable ASCII, none empty, `.` or `..`, without `\\`, `?` or `#`.',
    "- A release's `merkleRoot` is the txRoot algorithm over the leaves SHA-256(path + fileId) of its manifest, which is sorted by path (byte order) without duplicates and names only complete files of its site, each under the path it was uploaded as.",
    "- Only a site's owner writes to it. A release whose file was deleted cannot be activated; a file that the active release names cannot be deleted. An alias belongs to its first setter, who may point it at any of their sites.",
  ],
});
