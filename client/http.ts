/**
 * The client's HTTP transport: JSON in and out, `{error, code}` answers as `OmbraApiError`, an
 * unreachable node as `OmbraUnreachable`. Browser-safe: it uses only `fetch`.
 */

/** A node refused a request with its `{error, code}` answer. */
export class OmbraApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** Seconds the node asked to wait before trying again (its Retry-After), when it said. */
  readonly retryAfterS: number | null;
  constructor(status: number, code: string, message: string, retryAfterS: number | null = null) {
    super(message);
    this.name = 'OmbraApiError';
    this.status = status;
    this.code = code;
    this.retryAfterS = retryAfterS;
  }
}

/** The node could not be reached (refused, reset, timed out) or answered something that is not JSON. */
export class OmbraUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OmbraUnreachable';
  }
}

/** How to reach a node. */
export interface ClientOptions {
  /** The node's base URL, e.g. http://127.0.0.1:7777 (in a browser page: its own origin). */
  url: string;
  /** An API key, sent as X-API-Key on every request. */
  apiKey?: string;
  /** Per-request deadline (default 15 s; streams have none). */
  timeoutMs?: number;
  /** A fetch implementation (default the global one). */
  fetch?: typeof fetch;
}

/** Query values; undefined ones are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** JSON over HTTP to one node. */
export class HttpTransport {
  readonly base: string;
  readonly opts: ClientOptions;
  private readonly fetchFn: typeof fetch;

  constructor(opts: ClientOptions) {
    this.opts = opts;
    this.base = opts.url.replace(/\/+$/, '');
    this.fetchFn = opts.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The absolute URL of `path` with `query`. */
  url(path: string, query: Query = {}): string {
    const u = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.href;
  }

  /** A raw request with the client's headers (streams use it). */
  async raw(path: string, init: RequestInit & { query?: Query } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.opts.apiKey && !headers.has('X-API-Key')) headers.set('X-API-Key', this.opts.apiKey);
    try {
      return await this.fetchFn(this.url(path, init.query), { ...init, headers });
    } catch (e) {
      if ((e as Error).name === 'AbortError' && init.signal?.aborted) throw e;
      const err = e as Error & { cause?: { code?: string; message?: string } };
      throw new OmbraUnreachable(`cannot reach the node at ${this.base}: ${err.cause?.code ?? err.cause?.message ?? err.message}`);
    }
  }

  /** A JSON request; non-2xx answers throw OmbraApiError. */
  async json<T>(method: string, path: string, body?: unknown, query?: Query, headers?: Record<string, string>): Promise<T> {
    const init: RequestInit & { query?: Query } = {
      method,
      query,
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
    };
    const res = await this.raw(path, init);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new OmbraUnreachable(`the node at ${this.base} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
    }
    if (!res.ok) {
      const b = parsed as { error?: unknown; code?: unknown } | null;
      throw new OmbraApiError(
        res.status,
        typeof b?.code === 'string' ? b.code : `HTTP_${res.status}`,
        String(b?.error ?? text.slice(0, 200)),
        /^[0-9]+$/.test(res.headers.get('Retry-After') ?? '') ? Number(res.headers.get('Retry-After')) : null,
      );
    }
    return parsed as T;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.json<T>('GET', path, undefined, query);
  }

  /** GET that answers null on 404 NOT_FOUND. */
  async find<T>(path: string, query?: Query): Promise<T | null> {
    try {
      return await this.get<T>(path, query);
    } catch (e) {
      if (e instanceof OmbraApiError && e.status === 404) return null;
      throw e;
    }
  }
}
