/** The definitions of the API key routes (served by ./keyRoutes.ts): register, the caller's keys, revoke. */
import { MAX_LABEL, parseRegister } from '../../../services/alerts/alertParams.ts';
import { endpoints, type Param } from '../../endpoints/endpoint.ts';
import { arr, ms, obj, str, uint } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';

const API_KEY: Param = {
  schema: str,
  description: 'an API key `ombra_live_<40 hex>_<8 hex>`',
  required: true,
  example: 'ombra_live_5f0c2a9d81e3b7c46a1d0e9f3b2c7d8e4a6b1c0f_3fe2651b',
};

/** API key routes. */
export const KEY_ENDPOINTS = endpoints({
  postApiKeysRegister: {
    method: 'POST',
    path: '/api/keys/register',
    tag: 'keys',
    summary: 'Register a tier 1 API key (shown once)',
    headers: { 'X-API-Key': { ...API_KEY, required: false, description: 'optional: the new key is owned by this one' } },
    body: {
      schema: obj({ tier: { const: 1 }, label: { type: 'string', maxLength: MAX_LABEL } }, ['label']),
      description: '`{tier: 1, label}`',
      parse: parseRegister,
      example: { tier: 1, label: 'block explorer' },
    },
    ok: { status: 200, schema: obj({ id: str, key: str, tier: uint, label: str, createdAt: ms }) },
    errors: [401, 413],
  },
  getApiKeysMe: {
    method: 'GET',
    path: '/api/keys/me',
    tag: 'keys',
    summary: 'The caller and the keys it registered',
    headers: { 'X-API-Key': API_KEY },
    ok: { schema: obj({ keys: arr(ref('ApiKey')) }) },
    errors: [401],
  },
  deleteApiKeysId: {
    method: 'DELETE',
    path: '/api/keys/:id',
    tag: 'keys',
    summary: 'Revoke a key (itself or one it registered) and every key registered with it, down the chain',
    headers: { 'X-API-Key': API_KEY },
    params: { id: { schema: str, description: 'key id', example: 'key_5f0c2a9d81e3b7c4' } },
    ok: { schema: obj({ ok: { const: true }, id: str, revoked: { const: true }, keysRevoked: uint }) },
    errors: [401, 404],
  },
});
