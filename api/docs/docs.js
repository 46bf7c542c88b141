// Renders the node's OpenAPI document (GET /api/openapi.json) as a readable page: operations by
// tag with their parameters, bodies and answers, then every schema (transaction types with their
// fields in canonical hash order). Everything is built with DOM calls, never from HTML strings.
// Each operation has a curl command built from its parameters' examples (editable), and reads
// (GET) a "Try it" that sends that request to the node serving this page and shows its answer;
// each shows an example answer built from the document (./sample.js).
import { exampleAnswer } from './sample.js';

/** The document's schemas, once loaded (the example answers resolve `$ref`s in them). */
let docSchemas = {};

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
  const example = exampleAnswer(op, docSchemas);
  const sample = example
    ? [
        el('h4', {}, `Example answer (${example.status})`),
        el('pre', { class: 'example', tabindex: '0' }, JSON.stringify(example.value, null, 2)),
      ]
    : [];
  return [
    ...sample,
    el('h4', {}, 'Answers'),
    el(
      'table',
      {},
      ...Object.entries(op.responses).map(([status, r]) => {
        const [type, media] = Object.entries(r.content || {})[0] || ['', {}];
        return el(
          'tr',
          {},
          el('td', { class: 'status' }, el('code', {}, status)),
          el('td', {}, r.description || ''),
          el('td', {}, el('code', {}, `${type} ${typeOf(media.schema)}`)),
        );
      }),
    ),
  ];
}

/** The URL of `path` on this node with `values` for its path and query parameters. */
function urlOf(path, params, values) {
  let p = path;
  const q = new URLSearchParams();
  for (const prm of params) {
    const v = values.get(prm.name) ?? '';
    if (prm.in === 'path') p = p.replace(`{${prm.name}}`, encodeURIComponent(v));
    else if (prm.in === 'query' && v !== '') q.set(prm.name, v);
  }
  const qs = q.toString();
  return `${location.origin}${p}${qs ? `?${qs}` : ''}`;
}

const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;

/** The curl command of a request. */
function curlOf(method, url, body) {
  if (method === 'get') return `curl -s ${quote(url)}`;
  const data = body === undefined ? '' : ` -H 'Content-Type: application/json' --data ${quote(JSON.stringify(body))}`;
  return `curl -s -X ${method.toUpperCase()}${data} ${quote(url)}`;
}

/** The curl example of an operation, its parameters editable, and for reads a "Try it" against this node. */
function tryIt(path, method, op) {
  const params = (op.parameters || []).filter((p) => p.in === 'path' || p.in === 'query');
  const values = new Map(params.map((p) => [p.name, p.example === undefined ? '' : String(p.example)]));
  const body = op.requestBody?.content?.['application/json']?.example;
  const curl = el('pre', { class: 'curl', tabindex: '0' });
  const show = () => {
    curl.textContent = curlOf(method, urlOf(path, params, values), body);
  };
  show();
  const inputs = params.map((p) => {
    const id = `${op.operationId}-${p.name}`;
    const input = el('input', { id, name: p.name, value: values.get(p.name), autocomplete: 'off' });
    input.addEventListener('input', () => {
      values.set(p.name, input.value);
      show();
    });
    return el('label', { for: id }, el('code', {}, p.name), ' ', input);
  });
  const parts = [el('h4', {}, 'Example'), inputs.length ? el('div', { class: 'inputs' }, ...inputs) : '', curl];
  if (method !== 'get') return parts;
  const out = el('div', { class: 'answer', 'aria-live': 'polite' });
  const button = el('button', { type: 'button' }, 'Try it');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const res = await fetch(urlOf(path, params, values), { headers: { Accept: 'application/json' } });
      const type = res.headers.get('Content-Type') || '';
      let text = type.includes('json') ? JSON.stringify(await res.json(), null, 2) : await res.text();
      if (!type.startsWith('text/') && !type.includes('json')) text = `(${type}, ${text.length} bytes)`;
      if (text.length > 20_000) text = `${text.slice(0, 20_000)}\n… (${text.length.toLocaleString('en-US')} characters in all)`;
      out.replaceChildren(el('p', {}, `${res.status} ${res.statusText} · ${type}`), el('pre', { tabindex: '0' }, text));
    } catch (e) {
      out.replaceChildren(el('p', { class: 'flag' }, `No answer: ${e.message}`));
    } finally {
      button.disabled = false;
    }
  });
  return [...parts, button, out];
}

function operation(path, method, op) {
  const body = op.requestBody
    ? [
        el('h4', {}, 'Body'),
        el('p', {}, op.requestBody.description || ''),
        el('pre', { tabindex: '0' }, JSON.stringify(op.requestBody.content['application/json'].schema, null, 2)),
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
    el(
      'div',
      {},
      op.description ? el('p', {}, op.description) : '',
      ...paramsTable(op.parameters),
      ...body,
      ...responses(op),
      ...tryIt(path, method, op),
    ),
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
      el('pre', { tabindex: '0' }, JSON.stringify(s, null, 2)),
    ),
  );
}

async function main() {
  const doc = await (await fetch('/api/openapi.json')).json();
  docSchemas = doc.components?.schemas || {};
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
