/**
 * Loaded into a child process with `node --import`: counts LevelDB writes (batches, puts, deletes,
 * clears) while armed and kills the process with SIGKILL right before write number
 * `OMBRA_CRASH_AT`, after printing `crash <n> <what>` on stdout (what: the sublevels the write
 * touches, e.g. `blocks+meta`). Armed from the start with `OMBRA_CRASH_ARMED=1`, or by a script
 * calling `globalThis.ombraCrash.arm()`. So a test places a kill -9 between any two writes.
 */
import { writeSync } from 'node:fs';
import { ClassicLevel } from 'classic-level';
// @ts-expect-error: classic-level ships no types for its chained batch module
import { ChainedBatch } from 'classic-level/chained-batch.js';

const at = Number(process.env.OMBRA_CRASH_AT ?? 0);
let armed = process.env.OMBRA_CRASH_ARMED === '1';
let writes = 0;

/** The sublevels named by the keys a write touches (`!blocks!0000…` is `blocks`). */
function touched(keys: unknown[]): string {
  const names = new Set<string>();
  for (const k of keys) {
    const m = typeof k === 'string' ? /^!([^!]+)!/.exec(k) : null;
    names.add(m ? m[1] : 'root');
  }
  return [...names].sort().join('+') || 'none';
}

function maybeCrash(what: string): void {
  if (!armed || at < 1) return;
  writes++;
  if (writes < at) return;
  writeSync(1, `crash ${writes} ${what}\n`);
  process.kill(process.pid, 'SIGKILL');
}

type Proto = Record<string, (this: unknown, ...args: unknown[]) => Promise<unknown>>;
const proto = ClassicLevel.prototype as unknown as Proto;
const wrap = (name: string, what: (args: unknown[]) => string) => {
  const real = proto[name];
  proto[name] = function (this: unknown, ...args: unknown[]) {
    maybeCrash(what(args));
    return real.apply(this, args);
  };
};
wrap('_batch', ([ops]) => touched((ops as { key: unknown }[]).map((o) => o.key)));
wrap('_put', ([key]) => touched([key]));
wrap('_del', ([key]) => touched([key]));
// Chained batches (ChainStore.write): the keys are noted as they are added, the kill falls on the write.
const batchKeys = new WeakMap<object, unknown[]>();
type BatchProto = Record<string, (this: object, ...args: unknown[]) => unknown>;
const cproto = ChainedBatch.prototype as BatchProto;
for (const name of ['_put', '_del']) {
  const real = cproto[name];
  cproto[name] = function (this: object, ...args: unknown[]) {
    let keys = batchKeys.get(this);
    if (!keys) batchKeys.set(this, (keys = []));
    keys.push(args[0]);
    return real.apply(this, args);
  };
}
const realWrite = cproto._write;
cproto._write = function (this: object, ...args: unknown[]) {
  maybeCrash(touched(batchKeys.get(this) ?? []));
  return realWrite.apply(this, args);
};
wrap('_clear', ([opts]) => `clear:${touched([(opts as { gte?: unknown; gt?: unknown }).gte ?? (opts as { gt?: unknown }).gt])}`);

/** The switch a child script flips around the phase it wants killed. */
(globalThis as unknown as { ombraCrash: unknown }).ombraCrash = {
  arm() {
    armed = true;
  },
  disarm() {
    armed = false;
  },
};
