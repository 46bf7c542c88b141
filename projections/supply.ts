/** Supply accounting per height: emitted, burned, escrowed, fees. */
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

/** Supply state (big integers as strings so saved positions are plain JSON). */
export interface SupplyState {
  totalEmitted: string;
  totalBurned: string;
  escrow: string;
  feesPaid: string;
  blocksProduced: number;
}

/** totalEmitted = Σ balances + escrow + totalBurned, at every height. */
export const supplyProjection: Projection<SupplyState, SupplyState> = {
  name: 'supply',
  version: 1,
  init: (info: ChainInfo) => {
    const s = info.genesisState.supply;
    return {
      totalEmitted: s.emitted.toString(),
      totalBurned: s.burned.toString(),
      escrow: s.escrow.toString(),
      feesPaid: s.feesPaid.toString(),
      blocksProduced: 0,
    };
  },
  apply: (_s, ev: BlockEvent) => {
    const d = ev.diff.supply;
    return {
      state: {
        totalEmitted: d.emitted.toString(),
        totalBurned: d.burned.toString(),
        escrow: d.escrow.toString(),
        feesPaid: d.feesPaid.toString(),
        blocksProduced: ev.block.index,
      },
    };
  },
  save: (s) => s,
  load: (saved) => saved,
};

/** Circulating supply: everything emitted that is neither burned nor held in escrow. */
export function circulating(s: SupplyState): bigint {
  return BigInt(s.totalEmitted) - BigInt(s.totalBurned) - BigInt(s.escrow);
}
