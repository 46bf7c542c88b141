/** Every transaction type this chain knows, by name. */
import type { TxHandler } from './handler.ts';
import { agentHandlers } from './agent.ts';
import { artMintHandler } from './art.ts';
import { chatTurnHandler } from './chat.ts';
import { minerRegisterHandler } from './miner.ts';
import { socialHandlers } from './social.ts';
import { storageTransferHandler, webHandlers } from './storage.ts';
import { taskHandlers } from './task.ts';
import { burnHandler, transferHandler } from './transfer.ts';

const all: TxHandler[] = [
  transferHandler,
  burnHandler,
  ...taskHandlers,
  minerRegisterHandler,
  ...agentHandlers,
  ...socialHandlers,
  ...webHandlers,
  storageTransferHandler,
  // Types the spec's list leaves out but its features need (the live network's names).
  chatTurnHandler,
  artMintHandler,
];

/** Handlers by transaction type, in the spec's order. */
export const TX_HANDLERS: ReadonlyMap<string, TxHandler> = new Map(all.map((h) => [h.schema.type, h]));

/** Every transaction type name: the spec's 22, then CHAT_TURN and ART_MINT. */
export const TX_TYPES: readonly string[] = all.map((h) => h.schema.type);
