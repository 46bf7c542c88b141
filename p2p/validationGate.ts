/**
 * A cap on gossip validations in flight. Gossipsub hands every message to its topic validator
 * at once; the node's own work behind it (an import waits for the write queue) would otherwise
 * hold any number of messages. Beyond the cap a message is dropped (the caller answers Ignore:
 * no penalty, no forwarding); a dropped block comes back through sync, a dropped transaction
 * through another peer or a block.
 */

/** Runs at most `max` validations at once and counts the ones it dropped. */
export class ValidationGate {
  private readonly max: number;
  private running = 0;
  /** Messages dropped because the gate was full. */
  dropped = 0;

  constructor(max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`a validation cap must be a positive integer, got ${max}`);
    this.max = max;
  }

  /** Validations in flight now. */
  get inFlight(): number {
    return this.running;
  }

  /** Runs `work` when there is room, else answers `full` at once without running it. */
  async run<T>(work: () => Promise<T>, full: T): Promise<T> {
    if (this.running >= this.max) {
      this.dropped++;
      return full;
    }
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }
}
