/**
 * `ombra simulate`'s traffic: a seeded, realistic mix driving every executed transaction type
 * through a running node: transfers, miners answering tasks with deterministic outputs (image
 * and audio answers are real sample files uploaded as blobs, cli/simMedia.ts), the authority
 * validating and rewarding, art, image and audio mints, agent runs with steps, chat, social
 * traffic (cli/socialSim.ts) and a web drive (cli/driveSim.ts).
 * Each pipeline waits for its previous transaction to confirm before taking the next step.
 */
import { ZERO_ADDRESS } from '../core/address.ts';
import { sha256Hex } from '../core/hash.ts';
import { Refused, type SimClient } from './simClient.ts';
import { DriveTraffic } from './driveSim.ts';
import { blobUpload, mediaMint, minerMedia } from './simMedia.ts';
import { SocialTraffic } from './socialSim.ts';

/** Chain parameters as /api/chain/params serves them. */
interface Params {
  authorities: string[];
  forks: Record<string, number>;
  nextHeight: number;
}

interface Waiting {
  hash: string;
  since: number;
  then: (hash: string) => Promise<void>;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
const MINERS = [2, 3, 4];

/** The simulation. Dev key 0 must be a genesis authority (it validates and rewards). */
export class Simulator {
  private readonly c: SimClient;
  private readonly rnd: () => number;
  private readonly waiting: Waiting[] = [];
  private params!: Params;
  private readonly minerIds = new Map<number, string>();
  private openTasks = 0;
  private tasksSubmitted = 0;
  private openRuns = 0;
  private conversation = '';
  readonly log: string[] = [];
  private readonly social: SocialTraffic;
  private readonly drive: DriveTraffic;

  constructor(client: SimClient, seed: number) {
    this.c = client;
    this.rnd = seededRandom(seed);
    this.social = new SocialTraffic(
      (i, fields, then) => this.send(i, fields, then),
      this.rnd,
      client.keys.map((k) => k.address),
      (path) => client.get(path),
    );
    this.drive = new DriveTraffic((i, fields, then) => this.send(i, fields, then), this.rnd, client.keys);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)];
  }

  private active(fork: number): boolean {
    return fork === 1 || this.params.nextHeight >= this.params.forks[String(fork)];
  }

  /** Sends, and on confirmation runs `then`; refusals are counted, not fatal. */
  private async send(
    i: number,
    fields: Record<string, unknown> & { type: string },
    then: (hash: string) => Promise<void> = async () => undefined,
  ): Promise<(Record<string, unknown> & { hash: string }) | null> {
    try {
      const tx = await this.c.send(i, fields);
      this.waiting.push({ hash: tx.hash, since: Date.now(), then });
      return tx;
    } catch (e) {
      if (e instanceof Refused) {
        this.log.push(`${fields.type} refused: ${e.code} ${e.message}`);
        return null;
      }
      throw e;
    }
  }

  private async readParams(): Promise<void> {
    const params = await this.c.get<Params>('/api/chain/params');
    if (!params) throw new Error('the node answered no /api/chain/params');
    this.params = params;
  }

  /** A miner's id (empty when its registration was refused: the node refuses what it then sends). */
  private minerId(m: number): string {
    return this.minerIds.get(m) ?? '';
  }

  /** Registers the miners that are not registered yet and learns their ids. */
  private async setUp(): Promise<void> {
    await this.readParams();
    if (this.params.authorities[0] !== this.c.keys[0].address)
      throw new Error('dev key 0 is not the first genesis authority of this chain');
    this.conversation = sha256Hex(`${this.c.keys[6].address}|conversation|${Math.floor(this.rnd() * 1e9)}`);
    for (const m of MINERS) {
      const acc = await this.c.get<{ miner?: { id: string } }>(`/api/chain/account/${this.c.keys[m].address}`);
      if (acc?.miner) this.minerIds.set(m, acc.miner.id);
      else {
        const tx = await this.send(m, {
          type: 'MINER_REGISTER',
          name: `sim-miner-${m}`,
          capabilities: ['chat', 'code_simple', 'embedding', 'nft_svg', 'image', 'audio', 'agent'],
          fee: '1000',
        });
        if (tx) this.minerIds.set(m, sha256Hex(tx.hash));
      }
    }
  }

  /** Runs until `until` (epoch ms). */
  async run(until: number, tickMs = 250, done: () => boolean = () => false): Promise<void> {
    await this.setUp();
    while (Date.now() < until && !done()) {
      await this.readParams();
      await this.tick();
      await this.advance();
      await new Promise((r) => setTimeout(r, tickMs));
    }
  }

  private async advance(): Promise<void> {
    for (const w of [...this.waiting]) {
      const status = await this.c.status(w.hash);
      if (status === 'pending') continue;
      if (status === 'unknown' && Date.now() - w.since < 30_000) continue;
      this.waiting.splice(this.waiting.indexOf(w), 1);
      if (status === 'confirmed') await w.then(w.hash);
      else this.log.push(`transaction ${w.hash} was dropped`);
    }
  }

  private async tick(): Promise<void> {
    const wallets = [1, 7, 8, 9];
    for (let k = 0; k < 1 + Math.floor(this.rnd() * 2); k++) {
      const from = this.pick(wallets);
      const to = this.pick(wallets.filter((w) => w !== from));
      await this.send(from, {
        type: 'TRANSFER',
        to: this.c.keys[to].address,
        amount: String(1000 + Math.floor(this.rnd() * 1_000_000)),
        fee: String(1000 + Math.floor(this.rnd() * 4000)),
      });
    }
    if (this.minerIds.size === MINERS.length && this.openTasks < 6 && this.rnd() < 0.5) await this.submitTask();
    await this.social.tick();
    if (this.active(6) && this.minerIds.size === MINERS.length && this.openRuns < 3 && this.rnd() < 0.3) await this.requestRun();
    await this.drive.tick();
    if (this.active(6) && this.rnd() < 0.4) {
      await this.send(6, {
        type: 'CHAT_TURN',
        conversationId: this.conversation,
        role: 'user',
        content: `question ${Math.floor(this.rnd() * 1000)} about the chain`,
        fee: '1000',
      });
    }
  }

  private async submitTask(): Promise<void> {
    // Task types take turns, so even a short run reaches every pipeline (mints included).
    const types = TASK_TYPES.filter((t) => this.active(TASK_FORK[t] ?? 1));
    const taskType = types[this.tasksSubmitted++ % types.length];
    const prompt = `${taskType} request #${Math.floor(this.rnd() * 1e6)}`;
    const fee = 10_000 + Math.floor(this.rnd() * 50) * 1000;
    let taskId = '';
    const submitted = await this.send(1, { type: 'TASK_SUBMIT', taskType, prompt, fee: String(fee) }, async () => {
      const responders = [...MINERS].sort(() => this.rnd() - 0.5).slice(0, 2);
      let left = responders.length;
      const gone = () => {
        if (--left === 0) this.openTasks--;
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
      this.openTasks++;
    }
  }

  private async validate(taskId: string, taskType: string, prompt: string, fee: number, responders: number[]): Promise<void> {
    const scores = responders.map((m) => ({ minerId: this.minerId(m), score: 50 + Math.floor(this.rnd() * 51) }));
    const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
    const bestMiner = responders[scores.indexOf(best)];
    const validator = this.c.keys[0].address;
    await this.send(0, { type: 'TASK_VALIDATE', taskId, bestMinerId: best.minerId, scores, fee: '1000' }, async () => {
      const f = BigInt(fee);
      const miner = this.c.keys[bestMiner].address;
      const rewards = this.active(2)
        ? [
            { address: miner, amount: ((f * 70n) / 100n).toString(), reason: 'miner' },
            { address: validator, amount: ((f * 5n) / 100n).toString(), reason: 'validator' },
            { address: ZERO_ADDRESS, amount: (f - (f * 70n) / 100n - (f * 5n) / 100n).toString(), reason: 'burn' },
          ]
        : [{ address: miner, amount: f.toString(), reason: 'miner' }];
      const reward = await this.send(0, { type: 'TASK_REWARD', taskId, rewards, fee: '1000' }, async (rewardHash) => {
        this.openTasks--;
        if (taskType === 'nft_svg' && this.active(3)) await this.mint(taskId, prompt, best.minerId, rewardHash);
        if (isMedia(taskType)) await this.mintMedia(taskType, taskId, prompt, best.minerId, rewardHash);
      });
      if (!reward) this.openTasks--;
    });
  }

  private async mint(taskId: string, prompt: string, minerId: string, rewardHash: string): Promise<void> {
    const svg = minerAnswer('nft_svg', prompt, minerId);
    await this.send(1, {
      type: 'ART_MINT',
      tokenId: sha256Hex(taskId + svg),
      svg,
      owner: this.c.keys[1].address,
      taskId,
      minerId,
      seedHash: sha256Hex(prompt + minerId + rewardHash),
      model: 'sim-llm-1',
      fee: '1000',
    });
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

  private async mintMedia(taskType: 'image' | 'audio', taskId: string, prompt: string, minerId: string, rewardHash: string): Promise<void> {
    const seedHash = sha256Hex(prompt + minerId + rewardHash);
    const owner = this.c.keys[1].address;
    await this.send(1, mediaMint(minerMedia(taskType, prompt, minerId), { taskId, minerId, seedHash, owner, model: 'sim-media-1' }));
  }

  private async requestRun(): Promise<void> {
    const prompt = `agent job #${Math.floor(this.rnd() * 1e6)}: summarise recent blocks`;
    const cancel = this.rnd() < 0.1;
    const fail = !cancel && this.rnd() < 0.1;
    const maxSteps = 1 + Math.floor(this.rnd() * 4);
    let runId = '';
    this.openRuns++;
    const tx = await this.send(
      5,
      {
        type: 'AGENT_REQUEST',
        conversationId: this.conversation,
        prompt,
        toolsWhitelist: ['chain_get_block', 'math_eval'],
        maxFee: '200000',
        maxSteps,
      },
      async () => {
        if (cancel) {
          await this.send(
            5,
            { type: 'AGENT_FINISH', agentRunId: runId, outcome: 'cancelled', finalAnswerInline: '', totalTokensOut: 0, fee: '1000' },
            async () => void this.openRuns--,
          );
          return;
        }
        const miner = this.pick(MINERS);
        await this.send(
          miner,
          { type: 'AGENT_CLAIM', agentRunId: runId, modelInfo: 'sim-llm-1', hardwareTier: 'desktop', fee: '1000' },
          () => this.step(miner, runId, 0, maxSteps, 0, fail),
        );
      },
    );
    if (tx) runId = String(tx.agentRunId);
    else this.openRuns--;
  }

  private async step(miner: number, runId: string, index: number, maxSteps: number, tokens: number, fail: boolean): Promise<void> {
    if (index >= maxSteps) {
      const answer = fail ? '' : `final answer for ${runId.slice(0, 8)}`;
      await this.send(
        miner,
        {
          type: 'AGENT_FINISH',
          agentRunId: runId,
          outcome: fail ? 'failed' : 'completed',
          finalAnswerInline: answer,
          totalTokensOut: tokens + 10,
          fee: '1000',
        },
        async () => {
          this.openRuns--;
          await this.send(6, {
            type: 'CHAT_TURN',
            conversationId: this.conversation,
            role: 'assistant',
            content: answer || 'the agent failed',
            agentRunId: runId,
            fee: '1000',
          });
        },
      );
      return;
    }
    const out = 10 + Math.floor(this.rnd() * 200);
    const toolCalls = [
      {
        name: 'chain_get_block',
        argsHash: sha256Hex(`${runId}${index}a`),
        resultHash: sha256Hex(`${runId}${index}r`),
        durationMs: 5 + index,
        ok: true,
      },
    ];
    await this.send(
      miner,
      {
        type: 'AGENT_STEP',
        agentRunId: runId,
        stepIndex: index,
        outputTokens: out,
        outputHash: sha256Hex(`${runId}:${index}`),
        toolCalls,
        fee: '1000',
      },
      () => this.step(miner, runId, index + 1, maxSteps, tokens + out, fail),
    );
  }
}
