/**
 * One side of the fan-out benchmark in a process of its own, so neither side's memory figure is
 * taken over the other's freed heap: `node test/bench/fanoutSide.ts node N ROUNDS` or
 * `... bare N ROUNDS SAMPLE_BLOCK_JSON`; the result goes back over IPC.
 */
import type { Block } from '../../core/block.ts';
import { bareFanout, nodeFanout } from './fanout.ts';

const [side, n, rounds, sample] = process.argv.slice(2);
const result =
  side === 'node' ? await nodeFanout(Number(n), Number(rounds)) : await bareFanout(Number(n), Number(rounds), JSON.parse(sample) as Block);
process.send!({ result });
process.exit(0);
