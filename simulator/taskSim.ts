/**
 * The task part of a simulation: dev key 1 submits tasks of each type in turn, two miners answer
 * each (image and audio answers are sample files uploaded as blobs, simulator/simMedia.ts), the
 * authority validates and rewards, and art, image and audio answers are minted.
 */
import { ZERO_ADDRESS } from '../core/address.ts';
import { sha256Hex } from '../core/hash.ts';
import type { KeyPair } from '../core/keys.ts';
import { blobUpload, mediaMint, minerMedia } from './simMedia.ts';
import type { SimSend } from './socialSim.ts';

/** A miner's deterministic answer: an SVG for nft_svg tasks, text otherwise. */
function minerAnswer(taskType: string, prompt: string, minerId: string): string {
  const h = sha256Hex(prompt + minerId);
  if (taskType !== 'nft_svg') return `answer ${h.slice(0, 16)} to "${prompt.slice(0, 40)}"`;
  const shapes = [0, 1, 2, 3].map(
    (i) =>
      `<circle cx="${parseInt(h.slice(i * 4, i * 4 + 2), 16) % 100}" cy="${parseInt(h.slice(i * 4 + 2, i * 4 + 4), 16) % 100}" r="${8 + i * 4}" fill="#${h.slice(20 + i * 6, 26 + i * 6)}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#${h.slice(56, 62)}"/>${shapes.join('')}</svg>`;
}

const TASK_TYPES = ['chat', 'code_simple', 'embedding', 'nft_svg', 'image', 'audio'];
/** The fork a task type needs to be worth submitting here (its mint's fork). */
const TASK_FORK: Record<string, number> = { nft_svg: 3, image: 4, audio: 5 };
const isMedia = (taskType: string): taskType is 'image' | 'audio' => taskType === 'image' || taskType === 'audio';
/** The task pipelines of a simulation, answered by the miners `miners` (dev key indexes). */
export class TaskTraffic {
  private readonly send: SimSend;
  private readonly rnd: () => number;
  private readonly keys: readonly KeyPair[];
  private readonly miners: readonly number[];
  private readonly active: (fork: number) => boolean;
  private readonly minerId: (m: number) => string;
  /** Tasks submitted and not rewarded (or given up) yet. */
  open = 0;
  private submitted = 0;

  constructor(
    send: SimSend,
    rnd: () => number,
    keys: readonly KeyPair[],
    miners: readonly number[],
    active: (fork: number) => boolean,
    minerId: (m: number) => string,
  ) {
    this.send = send;
    this.rnd = rnd;
    this.keys = keys;
    this.miners = miners;
    this.active = active;
    this.minerId = minerId;
  }

  /** Submits a task from dev key 1; two miners answer it, the authority validates and rewards, then it is minted. */
  async submit(): Promise<void> {
    // Task types take turns, so even a short run reaches every pipeline (mints included).
    const types = TASK_TYPES.filter((t) => this.active(TASK_FORK[t] ?? 1));
    const taskType = types[this.submitted++ % types.length];
    const prompt = `${taskType} request #${Math.floor(this.rnd() * 1e6)}`;
    const fee = 10_000 + Math.floor(this.rnd() * 50) * 1000;
    let taskId = '';
    const submitted = await this.send(1, { type: 'TASK_SUBMIT', taskType, prompt, fee: String(fee) }, async () => {
      const responders = [...this.miners].sort(() => this.rnd() - 0.5).slice(0, 2);
      let left = responders.length;
      const gone = () => {
        if (--left === 0) this.open--;
      };
      for (const m of responders) {
        const minerId = this.minerId(m);
        const answer = async (content: string) => {
          const sent = await this.send(
            m,
            {
              type: 'TASK_RESPONSE',
              taskId,
              minerId,
              contentHash: sha256Hex(content),
              content,
              model: 'sim-llm-1',
              tokensIn: prompt.length,
              tokensOut: 20 + Math.floor(this.rnd() * 500),
              durationMs: 50 + Math.floor(this.rnd() * 900),
              fee: '1000',
            },
            async () => {
              if (--left === 0) await this.validate(taskId, taskType, prompt, fee, responders);
            },
          );
          if (!sent) gone();
        };
        // An image or audio answer is a file: the miner uploads it, then answers with its blob id.
        if (isMedia(taskType)) {
          const media = minerMedia(taskType, prompt, minerId);
          await this.sendSteps(m, blobUpload(media), () => answer(media.blobId), gone);
        } else await answer(minerAnswer(taskType, prompt, minerId));
      }
    });
    if (submitted) {
      taskId = submitted.hash.slice(0, 32);
      this.open++;
    }
  }

  /** The authority (dev key 0) scores the answers and pays the best miner (and validator and burn from fork 2). */
  private async validate(taskId: string, taskType: string, prompt: string, fee: number, responders: number[]): Promise<void> {
    const scores = responders.map((m) => ({ minerId: this.minerId(m), score: 50 + Math.floor(this.rnd() * 51) }));
    const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
    const bestMiner = responders[scores.indexOf(best)];
    const validator = this.keys[0].address;
    await this.send(0, { type: 'TASK_VALIDATE', taskId, bestMinerId: best.minerId, scores, fee: '1000' }, async () => {
      const f = BigInt(fee);
      const miner = this.keys[bestMiner].address;
      const rewards = this.active(2)
        ? [
            { address: miner, amount: ((f * 70n) / 100n).toString(), reason: 'miner' },
            { address: validator, amount: ((f * 5n) / 100n).toString(), reason: 'validator' },
            { address: ZERO_ADDRESS, amount: (f - (f * 70n) / 100n - (f * 5n) / 100n).toString(), reason: 'burn' },
          ]
        : [{ address: miner, amount: f.toString(), reason: 'miner' }];
      const reward = await this.send(0, { type: 'TASK_REWARD', taskId, rewards, fee: '1000' }, async (rewardHash) => {
        this.open--;
        if (taskType === 'nft_svg' && this.active(3)) await this.mint(taskId, prompt, best.minerId, rewardHash);
        if (isMedia(taskType)) await this.mintMedia(taskType, taskId, prompt, best.minerId, rewardHash);
      });
      if (!reward) this.open--;
    });
  }

  /** Mints an nft_svg answer as art. */
  private async mint(taskId: string, prompt: string, minerId: string, rewardHash: string): Promise<void> {
    const svg = minerAnswer('nft_svg', prompt, minerId);
    await this.send(1, {
      type: 'ART_MINT',
      tokenId: sha256Hex(taskId + svg),
      svg,
      owner: this.keys[1].address,
      taskId,
      minerId,
      seedHash: sha256Hex(prompt + minerId + rewardHash),
      model: 'sim-llm-1',
      fee: '1000',
    });
  }

  /** Mints an image or audio answer. */
  private async mintMedia(taskType: 'image' | 'audio', taskId: string, prompt: string, minerId: string, rewardHash: string): Promise<void> {
    const seedHash = sha256Hex(prompt + minerId + rewardHash);
    const owner = this.keys[1].address;
    await this.send(1, mediaMint(minerMedia(taskType, prompt, minerId), { taskId, minerId, seedHash, owner, model: 'sim-media-1' }));
  }
  /** Sends each step's transactions, the next step once the last of the previous one confirmed, then `done`; `failed` on a refusal. */
  private async sendSteps(
    i: number,
    steps: (Record<string, unknown> & { type: string })[][],
    done: () => Promise<void>,
    failed: () => void,
  ): Promise<void> {
    const [step, ...rest] = steps;
    if (!step) return done();
    for (const [k, fields] of step.entries()) {
      const next = k === step.length - 1 ? () => this.sendSteps(i, rest, done, failed) : undefined;
      if (!(await this.send(i, fields, next))) return failed();
    }
  }
}
