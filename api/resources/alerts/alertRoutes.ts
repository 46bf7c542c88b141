/**
 * Alert subscriptions under /api/alerts: subscribe, then with X-Alert-Token list, remove,
 * re-enable and rotate the signing secret; e-mail targets confirm by the link they were mailed.
 * Every definition of ./alertEndpoints.ts is served here.
 */
import type { Context, Hono } from 'hono';
import { ALERT_ENDPOINTS as E } from './alertEndpoints.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { ChainError } from '../../../core/errors.ts';
import type { AlertService } from '../../../services/alerts/alertService.ts';
import type { ApiDeps } from '../../context.ts';
import { clientBucket } from '../../clientIp.ts';
import { limitBody, SMALL_BODY_BYTES } from '../../body.ts';
import { confirmedPage, confirmPage, wantsHtml } from '../../../services/alerts/confirmPage.ts';
import { pageHeaders } from '../../staticFiles.ts';

function token(c: Context, required: true): string;
function token(c: Context, required: false): string | undefined;
function token(c: Context, required: boolean): string | undefined {
  const t = c.req.header('x-alert-token');
  if (t === undefined || t === '') {
    if (required) throw new ChainError('UNAUTHORIZED', 'this endpoint needs the subscription token in the X-Alert-Token header');
    return undefined;
  }
  if (t.length > 128) throw new ChainError('UNAUTHORIZED', 'missing or unknown X-Alert-Token');
  return t;
}

/** Alert routes. */
export function alertRoutes(deps: ApiDeps & { alerts: AlertService }): Hono {
  const { alerts } = deps;
  return resource(
    E,
    {
      postApiAlertsSubscribe: async (c, { body: input }) => {
        // Subscriptions per IP count per IPv4 address or IPv6 /64.
        const created = await alerts.subscribe(input, clientBucket(c, deps.limiter?.proxies ?? null), token(c, false));
        return c.json(created);
      },

      // The link mailed to an e-mail target. Opening it changes nothing (scanners and previews open
      // links too); the POST its page's button sends is the consent to receive alerts.
      getApiAlertsConfirmToken: (c, { params }) => {
        const pending = alerts.awaitingConfirmation(params.token);
        if (!wantsHtml(c.req.header('accept'))) return c.json({ ...pending, status: 'unconfirmed' as const, confirm: 'POST this URL' });
        const html = confirmPage(pending);
        return c.body(html, 200, pageHeaders(html));
      },

      postApiAlertsConfirmToken: async (c, { params }) => {
        const done = await alerts.confirm(params.token);
        if (!wantsHtml(c.req.header('accept'))) return c.json(done);
        const html = confirmedPage(done.id);
        return c.body(html, 200, pageHeaders(html));
      },

      postApiAlertsIdEnable: async (c, { params }) => c.json(await alerts.enable(params.id, token(c, true))),

      postApiAlertsIdSecret: async (c, { params }) => c.json(await alerts.rotateSecret(params.id, token(c, true))),

      getApiAlerts: (c) => c.json({ alerts: alerts.list(token(c, true)) }),

      deleteApiAlertsId: async (c, { params }) => {
        const id = params.id;
        await alerts.remove(id, token(c, true));
        return c.json({ ok: true as const, id, removed: true as const });
      },
    },
    { before: { postApiAlertsSubscribe: [limitBody(SMALL_BODY_BYTES)] } },
  );
}
