/** The definitions of the alert routes (served by ./alertRoutes.ts): subscribe, confirm, list, re-enable, rotate, remove. */
import { TRIGGERS } from '../../../services/alerts/alertMatch.ts';
import { MAX_EMAIL, MAX_URL, parseSubscribe } from '../../../services/alerts/alertParams.ts';
import { endpoints, type Param } from '../../endpoints/endpoint.ts';
import { EXAMPLE_ADDRESS, EXAMPLE_HASH } from '../../endpoints/examples.ts';
import { arr, ms, obj, okWith, oneOf, str } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';

const ALERT_TOKEN: Param = {
  schema: str,
  description: 'the subscription token POST /api/alerts/subscribe answered',
  required: true,
  example: 'ombra_alert_9c41d0b7e25a83f6c1d4e0a9b7f2356e8d1c4b0a9e7f3d26',
};

/** Alert routes. */
export const ALERT_ENDPOINTS = endpoints({
  postApiAlertsSubscribe: {
    method: 'POST',
    path: '/api/alerts/subscribe',
    tag: 'alerts',
    summary: 'Subscribe a webhook or e-mail to a trigger',
    description:
      'Answers the management token (`X-Alert-Token`) and, for a webhook, its signing secret `whsec_...` (the Standard Webhooks ' +
      'HMAC key): both are shown only here. An e-mail target is mailed a confirmation link and receives nothing else until it is ' +
      'followed (`status: unconfirmed`); at most 3 unconfirmed subscriptions per address (429 beyond).',
    headers: { 'X-Alert-Token': { ...ALERT_TOKEN, required: false, description: 'optional: join this token' } },
    body: {
      schema: obj({
        trigger: oneOf(...TRIGGERS),
        params: { type: 'object' },
        channel: oneOf('webhook', 'email'),
        target: { type: 'string', maxLength: Math.max(MAX_URL, MAX_EMAIL) },
      }),
      description: '`{trigger, params, channel, target}`',
      parse: parseSubscribe,
      example: {
        trigger: 'address_tx',
        params: { address: EXAMPLE_ADDRESS },
        channel: 'webhook',
        target: 'https://example.com/ombra-hook',
      },
    },
    ok: {
      status: 200,
      schema: obj({ id: str, token: str, secret: str, trigger: str, createdAt: ms, status: oneOf('active', 'unconfirmed') }, ['secret']),
    },
    errors: [401, 413],
  },
  getApiAlertsConfirmToken: {
    method: 'GET',
    path: '/api/alerts/confirm/:token',
    tag: 'alerts',
    summary: 'What a confirmation link (mailed to an e-mail target) would confirm; changes nothing',
    description:
      'A browser (`Accept: text/html`) gets a page with a button that POSTs to the same URL; other clients get JSON. ' +
      'Opening the link confirms nothing, so mail scanners and link previews cannot consent for the recipient.',
    params: { token: { schema: str, description: 'the 64-hex token of the confirmation link', example: EXAMPLE_HASH } },
    ok: {
      schema: obj({
        id: str,
        trigger: str,
        address: { type: ['string', 'null'] },
        target: str,
        expiresAt: ms,
        status: { const: 'unconfirmed' },
        confirm: str,
      }),
      page: true,
    },
    errors: [404],
  },
  postApiAlertsConfirmToken: {
    method: 'POST',
    path: '/api/alerts/confirm/:token',
    tag: 'alerts',
    summary: 'Confirm an e-mail subscription (the button of its confirmation link)',
    description:
      'The subscription fires for blocks committed after this. Unconfirmed subscriptions are removed after 24 h. A browser gets an HTML page.',
    params: { token: { schema: str, description: 'the 64-hex token of the confirmation link', example: EXAMPLE_HASH } },
    ok: { schema: okWith('confirmed'), page: true },
    errors: [404],
  },
  postApiAlertsIdEnable: {
    method: 'POST',
    path: '/api/alerts/:id/enable',
    tag: 'alerts',
    summary: 'Re-enable a subscription disabled after a run of failed deliveries',
    description: 'It fires for blocks committed after this; an active one answers the same. An unconfirmed e-mail subscription is 400.',
    headers: { 'X-Alert-Token': ALERT_TOKEN },
    params: { id: { schema: str, description: 'subscription id', example: 'sub_5f0c2a9d81e3b7c4' } },
    ok: { schema: okWith('enabled') },
    errors: [401, 404],
  },
  postApiAlertsIdSecret: {
    method: 'POST',
    path: '/api/alerts/:id/secret',
    tag: 'alerts',
    summary: "Rotate a webhook's signing secret (the new one is shown once)",
    description:
      'Deliveries are signed with the new secret and, until `previousSecretValidUntil` (24 h), also with the one it replaces ' +
      '(two `v1,` signatures in `webhook-signature`), so a receiver can switch without losing deliveries.',
    headers: { 'X-Alert-Token': ALERT_TOKEN },
    params: { id: { schema: str, description: 'subscription id', example: 'sub_5f0c2a9d81e3b7c4' } },
    ok: { schema: obj({ id: str, secret: str, previousSecretValidUntil: ms }) },
    errors: [401, 404],
  },
  getApiAlerts: {
    method: 'GET',
    path: '/api/alerts',
    tag: 'alerts',
    summary: "A token's subscriptions",
    headers: { 'X-Alert-Token': ALERT_TOKEN },
    ok: { schema: obj({ alerts: arr(ref('Alert')) }) },
    errors: [401],
  },
  deleteApiAlertsId: {
    method: 'DELETE',
    path: '/api/alerts/:id',
    tag: 'alerts',
    summary: 'Remove a subscription and its pending deliveries',
    headers: { 'X-Alert-Token': ALERT_TOKEN },
    params: { id: { schema: str, description: 'subscription id', example: 'sub_5f0c2a9d81e3b7c4' } },
    ok: { schema: okWith('removed') },
    errors: [401, 404],
  },
});
