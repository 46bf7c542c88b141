// Renders the node's OpenAPI document (GET /api/openapi.json) as a readable page: operations by
// tag with their parameters, bodies and answers, then every schema (transaction types with their
// fields in canonical hash order). Everything is built with DOM calls, never from HTML strings.

/** An element with attributes and children (strings become text). */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children.flat()) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

/** A compact text form of a schema: `$ref`s as names, objects as `{a: type, ...}`. */
function typeOf(s, depth = 0) {
  if (!s || typeof s !== 'object') return 'any';
  if (s.$ref) return s.$ref.split('/').pop();
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map((x) => typeOf(x, depth)).join(' | ');
  if (s.allOf) return s.allOf.map((x) => typeOf(x, depth)).join(' & ');
  if (s.type === 'array') return `${typeOf(s.items, depth)}[]`;
  if (s.type === 'object' && s.properties) {
    if (depth > 2) return '{…}';
    const req = new Set(s.required || []);
    const parts = Object.entries(s.properties).map(([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${typeOf(v, depth + 1)}`);
    return `{${parts.join(', ')}}`;
  }
  if (s.type === 'string' && s.pattern) return `string /${s.pattern}/`;
  return Array.isArray(s.type) ? s.type.join(' | ') : s.type || 'any';
}

function paramsTable(params) {
  if (!params?.length) return [];
  return [
    el('h4', {}, 'Parameters'),
    el(
      'table',
      {},
      el('tr', {}, el('th', {}, 'name'), el('th', {}, 'in'), el('th', {}, 'type'), el('th', {}, 'meaning')),
      ...params.map((p) =>
        el(
          'tr',
          {},
          el('td', {}, el('code', {}, p.name)),
          el('td', {}, p.in + (p.required ? ' (required)' : '')),
          el('td', {}, el('code', {}, typeOf(p.schema))),
          el('td', {}, p.description || ''),
        ),
      ),
    ),
  ];
}

function responses(op) {
  return [
    el('h4', {}, 'Answers'),
    el(
      'table',
      {},
      ...Object.entries(op.responses).map(([status, r]) => {
        const [type, media] = Object.entries(r.content || {})[0] || ['', {}];
        return el(
          'tr',
          {},
          el('td', {}, el('code', {}, status)),
          el('td', {}, r.description || ''),
          el('td', {}, el('code', {}, `${type} ${typeOf(media.schema)}`)),
        );
      }),
    ),
  ];
}

function operation(path, method, op) {
  const body = op.requestBody
    ? [
        el('h4', {}, 'Body'),
        el('p', {}, op.requestBody.description || ''),
        el('pre', {}, JSON.stringify(op.requestBody.content['application/json'].schema, null, 2)),
      ]
    : [];
  return el(
    'details',
    { class: 'op', id: op.operationId },
    el(
      'summary',
      {},
      el('span', { class: `method ${method}` }, method.toUpperCase()),
      el('span', { class: 'path' }, path),
      el('span', { class: 'muted' }, op.summary),
      op['x-undocumented'] ? el('span', { class: 'flag' }, 'undocumented') : '',
    ),
    el('div', {}, op.description ? el('p', {}, op.description) : '', ...paramsTable(op.parameters), ...body, ...responses(op)),
  );
}

function schemaSection(name, s) {
  const order = s['x-field-order'];
  const rows = order
    ? order.map((f) =>
        el(
          'tr',
          {},
          el('td', {}, el('code', {}, f)),
          el('td', {}, el('code', {}, typeOf(s.properties[f]))),
          el('td', {}, s.properties[f]?.description || ''),
        ),
      )
    : [];
  return el(
    'details',
    { class: 'op', id: `schema-${name}` },
    el('summary', {}, el('span', { class: 'path' }, name), el('span', { class: 'muted' }, s.description || '')),
    el(
      'div',
      {},
      order ? el('p', { class: 'muted' }, 'Fields in canonical (hashed) order, then hash and signature:') : '',
      order ? el('table', {}, ...rows) : '',
      el('pre', {}, JSON.stringify(s, null, 2)),
    ),
  );
}

async function main() {
  const doc = await (await fetch('/api/openapi.json')).json();
  document.title = `${doc.info.title} ${doc.info.version}`;
  document
    .getElementById('meta')
    .replaceChildren(
      `OpenAPI ${doc.openapi} · version ${doc.info.version} · `,
      el('a', { href: '/api/openapi.json' }, 'openapi.json'),
      ' · ',
      el('a', { href: '/' }, 'explorer'),
    );
  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags?.[0] || 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operation(path, method, op));
    }
  const nav = document.getElementById('tags');
  const main = document.getElementById('ops');
  for (const [tag, ops] of byTag) {
    nav.append(el('a', { href: `#tag-${tag}` }, tag));
    main.append(el('h2', { id: `tag-${tag}` }, tag), ...ops);
  }
  nav.append(el('a', { href: '#schemas' }, 'schemas'));
  const schemas = document.getElementById('schemas');
  schemas.append(el('h2', {}, 'schemas'), ...Object.entries(doc.components.schemas).map(([n, s]) => schemaSection(n, s)));
}

main().catch((e) => {
  document.getElementById('meta').textContent = `Could not load the API document: ${e.message}`;
});
