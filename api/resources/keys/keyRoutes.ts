/**
 * API keys under /api/keys: register (tier 1, self-service), list and revoke with X-API-Key.
 * A caller sees and may revoke itself and the keys registered while presenting it. Every
 * definition of ./keyEndpoints.ts is served here.
 */
import { Hono, type Context } from 'hono';
import { resource } from '../../endpoints/endpoint.ts';
import { KEY_ENDPOINTS as E } from './keyEndpoints.ts';
import { ChainError } from '../../../core/errors.ts';
import { keyView, type ApiKeyRecord } from '../../../services/apiKeyFormat.ts';
import type { ApiKeyStore } from '../../../services/apiKeys.ts';
import { limitBody, SMALL_BODY_BYTES } from '../../body.ts';
import type { ApiDeps } from '../../context.ts';
import { clientBucket } from '../../clientIp.ts';

/** The key in X-API-Key, or UNAUTHORIZED. */
function caller(c: Context, keys: ApiKeyStore, required: true): ApiKeyRecord;
function caller(c: Context, keys: ApiKeyStore, required: false): ApiKeyRecord | null;
function caller(c: Context, keys: ApiKeyStore, required: boolean): ApiKeyRecord | null {
  const presented = c.req.header('x-api-key');
  if (presented === undefined || presented === '') {
    if (required) throw new ChainError('UNAUTHORIZED', 'this endpoint needs an API key in the X-API-Key header');
    return null;
  }
  const check = keys.check(presented);
  if (!check.ok)
    throw new ChainError(
      'UNAUTHORIZED',
      check.why === 'malformed' ? 'invalid API key: not a well-formed key (bad format or checksum)' : 'invalid API key: unknown or revoked',
    );
  keys.touch(check.record);
  return check.record;
}

/** Key routes. */
export function keyRoutes(deps: ApiDeps & { keys: ApiKeyStore }, maxKeysPerIp = 20): Hono {
  const { keys } = deps;
  const app = new Hono();
  app.use('/api/keys/*', async (_c, next) => {
    await keys.load();
    await next();
  });

  return resource(
    E,
    {
      postApiKeysRegister: async (c, { body: input }) => {
        if (input.tier !== 1)
          throw new ChainError(
            'INVALID_PARAMS',
            `tier ${input.tier} keys are issued by the node operator only (ombra keys create --tier ${input.tier}); register issues tier 1 keys`,
          );
        const owner = caller(c, keys, false);
        // Per IPv4 address or IPv6 /64: a host picks any address of its /64.
        const ip = clientBucket(c, deps.limiter?.proxies ?? null);
        if (!owner && keys.countByIp(ip) >= maxKeysPerIp)
          throw new ChainError(
            'RATE_LIMITED',
            `this IP already registered ${maxKeysPerIp} active keys, the most one IP may hold; revoke one first`,
          );
        const { record, key } = await keys.create({ tier: 1, label: input.label, ownerId: owner?.id ?? null, createdBy: ip });
        return c.json({ id: record.id, key, tier: record.tier, label: record.label, createdAt: record.createdAt });
      },

      getApiKeysMe: (c) => {
        const me = caller(c, keys, true);
        return c.json({ keys: keys.visibleTo(me).map(keyView) });
      },

      deleteApiKeysId: async (c, { params }) => {
        const me = caller(c, keys, true);
        const id = params.id;
        const target = keys.get(id);
        if (!target || !keys.mayRevoke(me, target))
          throw new ChainError('NOT_FOUND', `key ${id.slice(0, 40)} not found among the keys this key may revoke`);
        const revoked = await keys.revoke(id);
        return c.json({ ok: true as const, id, revoked: true as const, keysRevoked: revoked });
      },
    },
    { app, before: { postApiKeysRegister: [limitBody(SMALL_BODY_BYTES)] } },
  );
}
