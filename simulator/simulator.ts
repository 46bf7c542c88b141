/**
 * `ombra simulate`'s traffic: a seeded, realistic mix driving every executed transaction type
 * through a running node: transfers, tasks answered by miners, validated, rewarded and minted
 * (simulator/taskSim.ts), agent runs with steps (simulator/agentSim.ts), chat, social traffic
 * (simulator/socialSim.ts) and a web drive (simulator/driveSim.ts).
 * Each pipeline waits for its previous transaction to confirm before taking the next step.
 * When the node goes away (restarted, paused, killed), the run waits for it, trying again with
 * backoff and saying so, and goes on when it answers again, until the run's end.
 */
import { OmbraUnreachable } from '../client/index.ts';
import { sha256Hex } from '../core/hash.ts';
import { Refused, type SimClient } from './simClient.ts';
import { AgentTraffic } from './agentSim.ts';
import { DriveTraffic } from './driveSim.ts';
import { SocialTraffic } from './socialSim.ts';
import { TaskTraffic } from './taskSim.ts';

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

const MINERS = [2, 3, 4];

/** First and longest wait between tries while the node cannot be reached. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5000;

/** The simulation. Dev key 0 must be a genesis authority (it validates and rewards). */
export class Simulator {
  private readonly c: SimClient;
  private readonly rnd: () => number;
  private readonly waiting: Waiting[] = [];
  private params!: Params;
  private readonly minerIds = new Map<number, string>();
  private conversation = '';
  readonly log: string[] = [];
  /** Times the node could not be reached for a while, and the time spent waiting for it. */
  readonly outages = { count: 0, ms: 0 };
  /** Tells the operator about outages (one line each way). */
  private readonly say: (line: string) => void;
  private readonly social: SocialTraffic;
  private readonly drive: DriveTraffic;
  private readonly agents: AgentTraffic;
  private readonly tasks: TaskTraffic;

  constructor(client: SimClient, seed: number, say: (line: string) => void = () => undefined) {
    this.c = client;
    this.say = say;
    this.rnd = seededRandom(seed);
    this.social = new SocialTraffic(
      (i, fields, then) => this.send(i, fields, then),
      this.rnd,
      client.keys.map((k) => k.address),
      (path) => client.get(path),
    );
    this.drive = new DriveTraffic((i, fields, then) => this.send(i, fields, then), this.rnd, client.keys);
    this.tasks = new TaskTraffic(
      (i, fields, then) => this.send(i, fields, then),
      this.rnd,
      client.keys,
      MINERS,
      (fork) => this.active(fork),
      (m) => this.minerId(m),
    );
    this.agents = new AgentTraffic(
      (i, fields, then) => this.send(i, fields, then),
      this.rnd,
      MINERS,
      () => this.conversation,
    );
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

  /** Runs until `until` (epoch ms), waiting out the node's outages. */
  async run(until: number, tickMs = 250, done: () => boolean = () => false): Promise<void> {
    if (!(await this.riding(until, () => this.setUp()))) return;
    while (Date.now() < until && !done()) {
      const on = await this.riding(until, async () => {
        await this.readParams();
        await this.tick();
        await this.advance();
      });
      if (!on) return;
      await new Promise((r) => setTimeout(r, tickMs));
    }
  }

  /**
   * Runs `step`; while the node cannot be reached, waits (doubling from RETRY_FIRST_MS up to
   * RETRY_MAX_MS) and runs it again. False when `until` came first. A step cut short by the outage
   * is run whole again: what it sent before is tracked by the wallets and the confirmations.
   */
  private async riding(until: number, step: () => Promise<void>): Promise<boolean> {
    let since = 0;
    for (let wait = RETRY_FIRST_MS; ; wait = Math.min(2 * wait, RETRY_MAX_MS)) {
      try {
        await step();
        if (since) this.back(since);
        return true;
      } catch (e) {
        if (!(e instanceof OmbraUnreachable)) throw e;
        if (!since) {
          since = Date.now();
          this.outages.count++;
          this.say(`${e.message}; waiting for it (retrying with backoff until the run ends)`);
        }
        if (Date.now() + wait >= until) {
          this.outages.ms += Date.now() - since;
          this.say(`the node did not come back before the run ended (${((Date.now() - since) / 1000).toFixed(1)} s)`);
          return false;
        }
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** The node answers again after an outage that began at `since`. */
  private back(since: number): void {
    this.outages.ms += Date.now() - since;
    this.say(`the node answers again after ${((Date.now() - since) / 1000).toFixed(1)} s; continuing`);
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
    if (this.minerIds.size === MINERS.length && this.tasks.open < 6 && this.rnd() < 0.5) await this.tasks.submit();
    await this.social.tick();
    if (this.active(6) && this.minerIds.size === MINERS.length && this.agents.open < 3 && this.rnd() < 0.3) await this.agents.request();
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
}
