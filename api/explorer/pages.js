// The detail pages: block, transaction, address, task, agent run and NFTs (art SVG, image and
// audio), and search. Each answers an element, or null when the thing does not exist.
import { OmbraApiError } from '/explorer/client/browser.ts';
import { addrLink, blockLink, card, el, fieldValue, kv, link, ombra, short, table, txLink, when } from '/explorer/dom.js';

const HASH = /^[0-9a-fA-F]{64}$/;

export async function blockPage(client, id) {
  const b = HASH.test(id) ? await client.blockByHash(id.toLowerCase()) : /^[0-9]{1,15}$/.test(id) ? await client.block(Number(id)) : null;
  if (!b) return null;
  return el(
    'div',
    {},
    el('h1', {}, `Block #${b.index}`),
    card(
      'Header',
      kv([
        ['hash', el('span', { class: 'mono' }, b.hash)],
        [
          'parent',
          b.index > 0
            ? el('a', { href: `#/block/${b.index - 1}`, class: 'mono' }, b.previousHash)
            : el('span', { class: 'mono' }, b.previousHash),
        ],
        ['time', when(b.timestamp)],
        ['proposer', addrLink(b.proposer)],
        ['txRoot', el('span', { class: 'mono' }, b.txRoot)],
        ['stateRoot', el('span', { class: 'mono' }, b.stateRoot)],
        ['tokens burned / consumed', `${b.tokensBurned} / ${b.tokensConsumed}`],
        ['attestations', b.attestations.map((a) => addrLink(a.validatorAddress))],
      ]),
    ),
    card(
      `Transactions (${b.transactions.length})`,
      table(
        ['hash', 'type', 'from', 'nonce'],
        b.transactions.map((t) => [txLink(t.hash), el('span', { class: 'badge' }, t.type), addrLink(t.from), t.nonce]),
      ),
    ),
  );
}

export async function txPage(client, hash) {
  if (!HASH.test(hash)) return null;
  const t = await client.tx(hash.toLowerCase());
  if (!t) return null;
  const skip = new Set(['status', 'blockIndex', 'blockHash', 'position']);
  return el(
    'div',
    {},
    el('h1', {}, 'Transaction ', el('span', { class: 'mono' }, t.hash)),
    card(
      'Status',
      kv([
        ['status', el('span', { class: 'badge' }, t.status)],
        ['type', t.type],
        t.status === 'confirmed' && ['block', blockLink(t.blockIndex)],
        t.status === 'confirmed' && ['position', t.position],
        ['time', when(t.timestamp)],
      ]),
    ),
    card(
      'Fields (canonical order)',
      kv(
        Object.entries(t)
          .filter(([k]) => !skip.has(k))
          .map(([k, v]) => [k, fieldValue(k, v)]),
      ),
    ),
  );
}

export async function addressPage(client, address) {
  if (!/^ox[0-9a-fA-F]{40}$/.test(address)) return null;
  const a = await client.account(address.toLowerCase());
  return el(
    'div',
    {},
    el('h1', {}, 'Address ', el('span', { class: 'mono' }, a.address)),
    card(
      'Account',
      kv([
        ['balance', `${ombra(a.balance)} (${a.balance} micro)`],
        ['nonce', a.nonce],
        ['next nonce', a.nextNonce],
        a.miner && ['miner', `${a.miner.name} (${short(a.miner.id, 8)}), ${a.miner.tasksCompleted} tasks`],
      ]),
    ),
    card(
      'Recent transactions',
      table(
        ['hash', 'type', 'from', 'to', 'block'],
        a.recentTxs.map((t) => [
          txLink(t.hash),
          el('span', { class: 'badge' }, t.type),
          addrLink(t.from),
          addrLink(t.to),
          blockLink(t.blockIndex),
        ]),
      ),
    ),
  );
}

export async function taskPage(client, id) {
  const t = await client.task(id);
  if (!t) return null;
  return el(
    'div',
    {},
    el('h1', {}, `Task ${t.taskId}`),
    card(
      'Task',
      kv([
        ['status', el('span', { class: 'badge' }, t.status)],
        ['type', t.taskType],
        ['submitter', addrLink(t.submitter)],
        ['fee', ombra(t.fee)],
        ['submitted', txLink(t.submit.txHash)],
        ['prompt', el('pre', {}, t.prompt)],
        ['validation', t.validation ? txLink(t.validation.txHash) : null],
        ['reward', t.reward ? txLink(t.reward.txHash) : null],
        ['NFT', t.nft ? link(`${t.taskType === 'image' || t.taskType === 'audio' ? t.taskType : 'nft'}/${t.nft}`, short(t.nft)) : null],
      ]),
    ),
    card(
      `Responses (${t.responses.length})`,
      table(
        ['tx', 'miner', 'model', 'content'],
        t.responses.map((r) => [txLink(r.txHash), addrLink(r.miner), r.model ?? '', el('pre', {}, r.content.slice(0, 2000))]),
      ),
    ),
  );
}

export async function runPage(client, id) {
  if (!HASH.test(id)) return null;
  const r = await client.run(id.toLowerCase());
  if (!r) return null;
  return el(
    'div',
    {},
    el('h1', {}, 'Agent run ', el('span', { class: 'mono' }, r.agentRunId)),
    card('Run', kv(Object.entries(r).map(([k, v]) => [k, v === null ? null : fieldValue(k, v)]))),
  );
}

/** An art NFT with its SVG (shown through <img>: scripts inside an SVG image never run). */
export async function nftPage(client, id) {
  if (!HASH.test(id)) return null;
  const n = await client.nft(id.toLowerCase());
  if (!n) return null;
  return el(
    'div',
    {},
    el('h1', {}, 'Art NFT ', el('span', { class: 'mono' }, n.tokenId)),
    card('Artwork', el('div', { class: 'media' }, el('img', { src: client.nftSvgUrl(n.tokenId), alt: `SVG of NFT ${n.tokenId}` }))),
    card(
      'Token',
      kv([
        ['owner', addrLink(n.owner)],
        ['task', link(`task/${n.taskId}`, n.taskId)],
        ['miner', el('span', { class: 'mono' }, n.minerId)],
        ['minted', when(n.mintedAt)],
        ['block', blockLink(n.blockIndex)],
      ]),
    ),
  );
}

/** An image or audio NFT: its record, then the media, or why it cannot be shown (403 before its fork, 404). */
export async function mediaPage(client, kind, id) {
  if (!HASH.test(id)) return null;
  let n;
  try {
    n = await client.mediaNft(kind, id.toLowerCase());
  } catch (e) {
    if (e instanceof OmbraApiError && e.status === 403)
      return el(
        'div',
        {},
        el('h1', {}, `${kind} NFT`),
        el('p', { class: 'muted' }, `${kind} NFTs are not active on this chain yet (${e.message}).`),
      );
    throw e;
  }
  if (!n) return null;
  const src = client.mediaFileUrl(kind, n.tokenId);
  const media =
    kind === 'image' ? el('img', { src, alt: `${kind} NFT ${n.tokenId}` }) : el('audio', { src, controls: true, preload: 'metadata' });
  const holder = el('div', { class: 'media' }, media);
  media.addEventListener('error', () =>
    holder.replaceChildren(el('p', { class: 'error' }, `The ${kind} file is not available from this node.`)),
  );
  return el(
    'div',
    {},
    el('h1', {}, `${kind === 'image' ? 'Image' : 'Audio'} NFT `, el('span', { class: 'mono' }, n.tokenId)),
    card(kind === 'image' ? 'Image' : 'Audio', holder),
    card(
      'Token',
      kv(
        Object.entries(n).map(([k, v]) => [
          k,
          k === 'taskId' ? link(`task/${v}`, v) : k === 'blockIndex' ? blockLink(v) : fieldValue(k, v),
        ]),
      ),
    ),
  );
}

/** Search: one hit opens its page; several are listed. */
export async function searchPage(client, q, go) {
  const query = q.trim();
  const hits = query ? await client.search(query) : [];
  const targets = hits.map((h) =>
    h.type === 'block' ? `block/${h.data.index}` : h.type === 'tx' ? `tx/${h.data.hash}` : `address/${h.data.address}`,
  );
  // Task ids and NFT token ids are not in the chain search: ask for them directly.
  if (!targets.length && /^[A-Za-z0-9_-]{8,64}$/.test(query) && (await client.task(query).catch(() => null))) targets.push(`task/${query}`);
  if (targets.length === 1) {
    go(targets[0], true);
    return null;
  }
  return el(
    'div',
    {},
    el('h1', {}, `Search: ${query}`),
    targets.length
      ? el('ul', {}, ...targets.map((t) => el('li', {}, link(t, t))))
      : el('p', { class: 'muted' }, 'Nothing found for this height, hash, address or task id.'),
  );
}
