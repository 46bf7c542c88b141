/**
 * Every route the node serves, under its operation id (a second definition of an id or of a
 * method and path throws when this module loads). The app, the OpenAPI document, the client's
 * route table and docs/api.md all read this one catalog.
 */
import { ALERT_ENDPOINTS } from '../resources/alerts/alertEndpoints.ts';
import { AGENT_ENDPOINTS } from '../resources/agent/agentEndpoints.ts';
import { ANALYTICS_ENDPOINTS } from '../resources/analytics/analyticsEndpoints.ts';
import { BLOCK_ENDPOINTS } from '../resources/blocks/blockEndpoints.ts';
import { CHAIN_ENDPOINTS } from '../resources/chain/chainEndpoints.ts';
import { CHECKPOINT_ENDPOINTS } from '../resources/checkpoint/checkpointEndpoints.ts';
import { EXPORT_ENDPOINTS } from '../resources/exports/exportEndpoints.ts';
import { type AnswerOf, type AnswersJson, catalog } from './endpoint.ts';
import { LEDGER_ENDPOINTS } from '../resources/ledger/ledgerEndpoints.ts';
import { ALL_NFT_ENDPOINTS } from '../resources/nfts/nftEndpoints.ts';
import { KEY_ENDPOINTS } from '../resources/keys/keyEndpoints.ts';
import { DOCS_ENDPOINTS, EXPLORER_ENDPOINTS, METRICS_ENDPOINTS } from '../resources/operator/operatorEndpoints.ts';
import { SOCIAL_ENDPOINTS } from '../resources/social/socialEndpoints.ts';
import { TASK_ENDPOINTS } from '../resources/tasks/taskEndpoints.ts';
import { WEB_ENDPOINTS } from '../resources/web/webEndpoints.ts';

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
  KEY_ENDPOINTS,
  ALERT_ENDPOINTS,
  METRICS_ENDPOINTS,
  DOCS_ENDPOINTS,
  EXPLORER_ENDPOINTS,
  CHECKPOINT_ENDPOINTS,
  EXPORT_ENDPOINTS,
);

/** Every definition, typed (the catalog above checks them at run time). */
type Definitions = typeof CHAIN_ENDPOINTS &
  typeof BLOCK_ENDPOINTS &
  typeof LEDGER_ENDPOINTS &
  typeof TASK_ENDPOINTS &
  typeof ANALYTICS_ENDPOINTS &
  typeof ALL_NFT_ENDPOINTS &
  typeof AGENT_ENDPOINTS &
  typeof SOCIAL_ENDPOINTS &
  typeof WEB_ENDPOINTS &
  typeof KEY_ENDPOINTS &
  typeof ALERT_ENDPOINTS &
  typeof METRICS_ENDPOINTS &
  typeof DOCS_ENDPOINTS &
  typeof EXPLORER_ENDPOINTS &
  typeof CHECKPOINT_ENDPOINTS &
  typeof EXPORT_ENDPOINTS;

/**
 * The successful answer of every operation, from its definition's schema: what its handler must
 * answer and what the client reads (text, HTML and media answers are strings).
 */
export type Answers = { [K in keyof Definitions]: AnswersJson<Definitions[K]> extends true ? AnswerOf<Definitions[K]> : string };
