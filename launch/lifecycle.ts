/**
 * One place that runs components: started in order, stopped in reverse. A start that fails
 * stops the ones already started; a stop that fails is logged and the others still stop.
 */
import { ChainError, errorMessage } from '../core/errors.ts';
import { silentLogger, type Logger } from '../node/log.ts';
import type { Component } from '../node/ports.ts';

/** Ordered start, reverse stop. */
export class Lifecycle {
  private readonly started: { name: string; component: Component }[] = [];
  private readonly log: Logger;
  private stopping: Promise<void> | null = null;

  constructor(log: Logger = silentLogger) {
    this.log = log;
  }

  /** Starts `component` and remembers it; on failure stops everything started so far and rethrows. */
  async start<C extends Component>(name: string, component: C): Promise<C> {
    if (this.stopping) throw new Error(`cannot start ${name}: shutting down`);
    try {
      await component.start();
    } catch (e) {
      // The caller reports the error itself (`ombra` as one line): logged here only for debugging.
      this.log.debug('start failed', { component: name, error: errorMessage(e) });
      // What it opened before failing is released too.
      await component.stop().catch(() => undefined);
      await this.stop();
      throw e;
    }
    this.started.push({ name, component });
    return component;
  }

  /** Stops every started component in reverse order (idempotent). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const { name, component } of this.started.splice(0).reverse()) {
        try {
          await component.stop();
        } catch (e) {
          // A full data dir was reported once, when writes stopped (node/store/storageFence.ts): what a
          // component could not write on stop is refolded from the block log on the next start.
          if (e instanceof ChainError && e.code === 'DISK_FULL')
            this.log.warn('stopped without writing: writes are stopped', { component: name });
          else this.log.error('stop failed', { component: name, error: errorMessage(e) });
        }
      }
    })();
    return this.stopping;
  }
}
