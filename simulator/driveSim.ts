/**
 * `ombra simulate`'s web drive traffic, from dev key 0 (the authority earns the storage): a site
 * once, then rounds of a page uploaded in two chunks sent last-first, finalized, published as a
 * release and activated; the first round then sets the alias and moves a little free storage to
 * key 9, the others delete the previous page. One round at a time, each step waiting for the
 * confirmation of the one before, as the rest of the simulator does.
 */
import { CLAIM_MIN_FEE_V7 } from '../core/economics.ts';
import { sha256Hex } from '../core/hash.ts';
import type { KeyPair } from '../core/keys.ts';
import { fileIdOf, manifestRoot } from '../core/tx/web/webRecords.ts';
import type { SimSend } from './socialSim.ts';

/** The drive part of a simulation. */
export class DriveTraffic {
  private readonly send: SimSend;
  private readonly rnd: () => number;
  private readonly keys: readonly KeyPair[];
  /** Busy while a round is in flight; rounds done; the site; the file the live release serves. */
  private readonly state = { busy: false, rounds: 0, site: '', served: '' };

  constructor(send: SimSend, rnd: () => number, keys: readonly KeyPair[]) {
    this.send = send;
    this.rnd = rnd;
    this.keys = keys;
  }

  /** One simulator tick: sometimes starts a round when none is in flight. */
  async tick(): Promise<void> {
    if (!this.state.busy && this.rnd() < 0.3) await this.round();
  }

  private async round(): Promise<void> {
    const d = this.state;
    d.busy = true;
    const done = async () => {
      d.busy = false;
    };
    if (!d.site) {
      const siteId = `sim-${sha256Hex(`${this.keys[0].address}${Math.floor(this.rnd() * 1e9)}`).slice(0, 12)}`;
      const sent = await this.send(0, { type: 'WEB_SITE_REGISTER', siteId, name: 'simulated site', fee: '1000' }, async () => {
        d.site = siteId;
        d.busy = false;
      });
      if (!sent) d.busy = false;
      return;
    }
    const round = ++d.rounds;
    const bytes = Buffer.from(`<!doctype html><h1>round ${round}</h1><p>${sha256Hex(String(this.rnd()))}</p>`);
    const path = '/index.html';
    const contentHash = sha256Hex(bytes);
    const fileId = fileIdOf(d.site, path, contentHash);
    const half = Math.ceil(bytes.length / 2);
    const chunks = [bytes.subarray(0, half), bytes.subarray(half)].map((b) => b.toString('base64'));
    const init = {
      type: 'WEB_FILE_INIT',
      siteId: d.site,
      path,
      contentType: 'text/html',
      totalBytes: bytes.length,
      totalChunks: 2,
      contentHash,
      // A claim: it pays the fork-7 claim fee, so the drive runs on a network that schedules it (`ombra testnet`).
      fee: String(CLAIM_MIN_FEE_V7),
    };
    const chunk = (i: number, then: () => Promise<void>) =>
      this.send(0, { type: 'WEB_FILE_CHUNK', fileId, chunkIndex: i, dataBase64: chunks[i], fee: '0' }, then);
    const releaseId = `${d.site}-r${round}`;
    const manifest = [{ path, fileId }];
    const sent = await this.send(0, init, async () => {
      await chunk(1, async () => {
        await chunk(0, async () => {
          await this.send(0, { type: 'WEB_FILE_FINALIZE', fileId, fee: '0' }, async () => {
            const publish = {
              type: 'WEB_RELEASE_PUBLISH',
              siteId: d.site,
              releaseId,
              manifest,
              merkleRoot: manifestRoot(manifest),
              fee: '1000',
            };
            await this.send(0, publish, async () => {
              await this.send(0, { type: 'WEB_RELEASE_ACTIVATE', siteId: d.site, releaseId, fee: '1000' }, async () => {
                const previous = d.served;
                d.served = fileId;
                // Storage moves once the authority has surely earned some (blocks after its first upload).
                const transfer = () => this.send(0, { type: 'STORAGE_TRANSFER', to: this.keys[9].address, bytes: '64', fee: '1000' }, done);
                if (round === 1)
                  await this.send(
                    0,
                    { type: 'WEB_ALIAS_SET', siteId: d.site, alias: d.site, fee: '1000' },
                    async () => void (await transfer()),
                  );
                else await this.send(0, { type: 'WEB_FILE_DELETE', fileId: previous, fee: '1000' }, done);
              });
            });
          });
        });
      });
    });
    if (!sent) d.busy = false;
  }
}
