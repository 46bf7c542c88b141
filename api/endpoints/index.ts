/**
 * Every route the node serves, under its operation id (a second definition of an id or of a
 * method and path throws when this module loads). The app, the OpenAPI document, the client's
 * route table and docs/api.md all read this one catalog.
 */
import { ACCESS_ENDPOINTS } from './access.ts';
import { AGENT_ENDPOINTS } from './agent.ts';
import { ANALYTICS_ENDPOINTS } from './analytics.ts';
import { BLOCK_ENDPOINTS } from './blocks.ts';
import { CHAIN_ENDPOINTS } from './chain.ts';
import { CHECKPOINT_ENDPOINTS } from './checkpoint.ts';
import { EXPORT_ENDPOINTS } from './exports.ts';
import { catalog } from './endpoint.ts';
import { LEDGER_ENDPOINTS } from './ledger.ts';
import { ALL_NFT_ENDPOINTS } from './nfts.ts';
import { OPERATOR_ENDPOINTS } from './operator.ts';
import { SOCIAL_ENDPOINTS } from './social.ts';
import { TASK_ENDPOINTS } from './tasks.ts';
import { WEB_ENDPOINTS } from './web.ts';

/** Every route by operation id. */
export const ENDPOINTS = catalog(
  CHAIN_ENDPOINTS,
  BLOCK_ENDPOINTS,
  LEDGER_ENDPOINTS,
  TASK_ENDPOINTS,
  ANALYTICS_ENDPOINTS,
  ALL_NFT_ENDPOINTS,
  AGENT_ENDPOINTS,
  SOCIAL_ENDPOINTS,
  WEB_ENDPOINTS,
  ACCESS_ENDPOINTS,
  OPERATOR_ENDPOINTS,
  CHECKPOINT_ENDPOINTS,
  EXPORT_ENDPOINTS,
);
