/**
 * The raw request target, before any URL parser touches it. The WHATWG parser resolves dot
 * segments, percent-encoded ones too, so `/web/site/%2e%2e/%2e%2e/api/health` would be routed as
 * `/api/health`: a proxy that gates by path prefix would be bypassed. Browsers and HTTP clients
 * resolve dot segments before sending, so a target that still carries one is refused (400) here,
 * where the bytes the client sent are still at hand.
 */

/** Why a raw request target is refused (a dot segment, literal or percent-encoded), or null. */
export function dotSegmentProblem(target: string): string | null {
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  // Only `%2e` is decoded: `%2f` does not end a segment for the URL parser, so it cannot climb.
  for (const segment of path.split('/')) {
    const s = segment.replace(/%2e/gi, '.');
    if (s === '.' || s === '..') return 'the request path has a dot segment (".." or ".", literal or percent-encoded)';
  }
  return null;
}

/** The 400 answer of a refused target, in the API's `{error, code}` shape. */
export function dotSegmentAnswer(problem: string): Response {
  return Response.json({ error: problem, code: 'INVALID_PARAMS' }, { status: 400 });
}
