/**
 * Example values the route definitions carry into the OpenAPI document: real data of the dev
 * chain (the dev account of mnemonic index 1, and transactions it signed in
 * fixtures/simulated-chain.ndjson), so a client can try a route with them as they are. A test
 * checks each example against its own parser and schema, these transactions against the
 * fixture and their signatures, and that every GET route filled in with them finds what it asks for.
 */

/** The dev account of mnemonic index 1 (fixtures/dev-accounts.json). */
export const EXAMPLE_ADDRESS = 'ox69779141b27f1fb5062164ab88e27a4d00e34862';

/** A signed TRANSFER of that account, confirmed in fixtures/simulated-chain.ndjson. */
export const EXAMPLE_TRANSFER = {
  type: 'TRANSFER',
  from: EXAMPLE_ADDRESS,
  to: 'oxdcb5eebfeb7d2f79638589627cb604416715ed71',
  amount: '843688',
  fee: '2950',
  nonce: 1,
  timestamp: 1795460501600,
  publicKey: '9e4a672043d4770d5497c85c547ce4310967f002f86f2f051bde723094f93e9b',
  hash: 'c2a6290060bd064d9d07277c2f63116e7afe561708079bc7ab175edfb4ca72a8',
  signature:
    '333eef4c9c9d97fa88f973ad4478aac86d443ada1f92a503bbc22e1296612babe47003bed42d33f3005d07e2b17f06a7ff08b4d22e6d2ed9e14644b404754f0c',
} as const;

/** A signed TASK_SUBMIT of that account, confirmed in fixtures/simulated-chain.ndjson. */
export const EXAMPLE_TASK_SUBMIT = {
  type: 'TASK_SUBMIT',
  from: EXAMPLE_ADDRESS,
  taskType: 'chat',
  prompt: 'chat request #449895',
  fee: '11000',
  nonce: 2,
  timestamp: 1795460501604,
  publicKey: '9e4a672043d4770d5497c85c547ce4310967f002f86f2f051bde723094f93e9b',
  hash: '327d1c214ca75bd4bd5f15ceeed2b63ea2b0b24fb8dfc7fa994077e94dfa4daf',
  signature:
    '14dab0ae1524e77294c1dbcb53d0f83fdd5c78611424fa54402c0704c2bfe5c83b90891ca26c759fc05cdb3fa054d4f66434414d611f63d2944b26519e146d03',
} as const;

/** A 64-hex hash: the example TRANSFER's. */
export const EXAMPLE_HASH = EXAMPLE_TRANSFER.hash;

/** Ids of things the simulated chain holds (fixtures/simulated-chain.ndjson), by what they name. */
export const EXAMPLE_IDS = {
  /** The block that confirmed the example TRANSFER. */
  block: 'ae4ddc624397899f5119d515c41bb56b50d602433c78b55e4e8d039e5c2b4a0b',
  /** An ART_MINT, an IMAGE_MINT and an AUDIO_MINT of the dev account. */
  art: '37f56427ff83e627d1271ac7eb92ae48c19fce77ee50a869f43604c66a7f08fb',
  image: 'a8839e715ffe208a9edfd81bfabfb4e02e43113330672ab32073e38450ed5abe',
  audio: '7b6b92c9c0f142ffe402c5f56ba37acea8660643bf63e91500f7d1f52e857e47',
  blob: 'f3caaa92361f223e9645aae17ebf185210289285dd4171b9fb0b37a706c97955',
  agentRun: '911b7845e99f8edb24bc2bbaa56717278f1d595ff60d988a55dfd7bd0ca8bfbc',
  conversation: '98a96a00a41a11fa2080a5e918d067afc4cd51d72358e107c8209fffbd6e7419',
  /** A SOCIAL_LIKE_INTENT of the dev account (an intent's id is its transaction's hash). */
  intent: '8cda568032c0c53d35caecc918ebe463b6df82e2dbf42323f7653889a1873354',
  /** A file of the site's active release (not one deleted since). */
  webFile: 'cf81107aae5031cd93002c85a1fe9427175264b663cee4ff548db74b9e5e74eb',
  miner: '99f11932d3882bb971aaa7b4d7c13c437724327148445660e54e6f5dc3eb45d0',
} as const;
