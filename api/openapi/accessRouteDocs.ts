/** The catalog of the API key and alert routes. */
import { okWith, type ParamDoc, type RouteCatalog } from './routeDoc.ts';
import { arr, ms, obj, oneOf, ref, str, uint } from './shapes.ts';

const API_KEY: ParamDoc = { schema: str, description: 'an API key `ombra_live_<40 hex>_<8 hex>`', required: true };
const ALERT_TOKEN: ParamDoc = { schema: str, description: 'the subscription token POST /api/alerts/subscribe answered', required: true };

/** Key and alert routes. */
export const ACCESS_ROUTES: RouteCatalog = {
  'POST /api/keys/register': {
    tag: 'keys',
    summary: 'Register a tier 1 API key (shown once)',
    headers: { 'X-API-Key': { ...API_KEY, required: false, description: 'optional: the new key is owned by this one' } },
    body: { schema: obj({ tier: { const: 1 }, label: str }, ['label']), description: '`{tier: 1, label}`' },
    ok: { status: 201, schema: obj({ id: str, key: str, tier: uint, label: str, createdAt: ms }) },
    errors: [401, 413],
  },
  'GET /api/keys/me': {
    tag: 'keys',
    summary: 'The caller and the keys it registered',
    headers: { 'X-API-Key': API_KEY },
    ok: { schema: obj({ keys: arr(ref('ApiKey')) }) },
    errors: [401],
  },
  'DELETE /api/keys/:id': {
    tag: 'keys',
    summary: 'Revoke a key (itself or one it registered) and every key registered with it, down the chain',
    headers: { 'X-API-Key': API_KEY },
    params: { id: { schema: str, description: 'key id' } },
    ok: { schema: obj({ ok: { const: true }, id: str, revoked: { const: true }, keysRevoked: uint }) },
    errors: [401, 404],
  },
  'POST /api/alerts/subscribe': {
    tag: 'alerts',
    summary: 'Subscribe a webhook or e-mail to a trigger',
    headers: { 'X-Alert-Token': { ...ALERT_TOKEN, required: false, description: 'optional: join this token' } },
    body: {
      schema: obj({
        trigger: oneOf('address_tx', 'miner_block', 'reward', 'agent_finished'),
        params: { type: 'object' },
        channel: oneOf('webhook', 'email'),
        target: str,
      }),
      description: '`{trigger, params, channel, target}`',
    },
    ok: { status: 201, schema: obj({ id: str, token: str, trigger: str, createdAt: ms }) },
    errors: [401, 413],
  },
  'GET /api/alerts': {
    tag: 'alerts',
    summary: "A token's subscriptions",
    headers: { 'X-Alert-Token': ALERT_TOKEN },
    ok: { schema: obj({ alerts: arr(ref('Alert')) }) },
    errors: [401],
  },
  'DELETE /api/alerts/:id': {
    tag: 'alerts',
    summary: 'Remove a subscription and its pending deliveries',
    headers: { 'X-Alert-Token': ALERT_TOKEN },
    params: { id: { schema: str, description: 'subscription id' } },
    ok: { schema: okWith('removed') },
    errors: [401, 404],
  },
};
