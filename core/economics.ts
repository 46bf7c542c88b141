/** Protocol economics (the live network's constants where it documents them). */

/** Smallest task fee (MIN_TASK_FEE). */
export const MIN_TASK_FEE = 10_000n;
/** Most responses one task takes. */
export const MAX_TASK_RESPONSES = 32;
/** After the response deadline, how long validation and reward may take before the escrow is refunded. */
export const TASK_SETTLEMENT_WINDOW_MS = 600_000;
/** Task fee split from fork 2, in percent: miner, validator; the remainder is burned. */
export const FEE_SPLIT_V2 = { miner: 70n, validator: 5n } as const;
/** Network fee per agent step, paid to the treasury (AGENT_NETWORK_FEE_PER_STEP). */
export const AGENT_NETWORK_FEE_PER_STEP = 100n;
/** Miner reward per output token of an agent run (AGENT_REWARD_PER_TOKEN). */
export const AGENT_REWARD_PER_TOKEN = 1n;
/** A pending run not claimed within this time times out with a full refund. */
export const AGENT_CLAIM_TIMEOUT_MS = 600_000;
/** A claimed run not finished within this time after its claim times out. */
export const AGENT_RUN_TIMEOUT_MS = 1_800_000;
/** Fee of a chat turn, paid to the treasury (CHAT_TURN_FEE). */
export const CHAT_TURN_FEE = 100n;
/**
 * From fork 7, the least `fee` of a transaction that claims an id or a name (a site id, an alias,
 * a blob id, a drive file): first come no longer means free, and a key with no balance claims nothing.
 */
export const CLAIM_MIN_FEE_V7 = 1_000n;
