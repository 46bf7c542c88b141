/** /api/miners: the list (both paths), one miner by id, the miner of an address. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { fullTask, registerMiner } from '../../helpers/economy.ts';
import { assertError, get, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;

test('no miners: an empty list with total 0, on both paths', () =>
  withChain(async (c) => {
    assert.deepEqual((await get(c, '/api/miners/')).body, { miners: [], total: 0 });
    assert.deepEqual((await get(c, '/api/miners')).body, { miners: [], total: 0 });
  }));

test('registered miners in registration order with reputation and completed tasks from the read model', () =>
  withChain(async (c) => {
    const m2 = await registerMiner(c, 2, ['chat', 'code']);
    await c.produce();
    const m3 = await registerMiner(c, 3);
    const m4 = await registerMiner(c, 4);
    await c.produce();
    await fullTask(c);
    const list = (await get(c, '/api/miners/')).body;
    assert.equal(list.total, 3);
    const [x, y] = [m3, m4].sort();
    assert.deepEqual(
      list.miners.map((m: any) => m.id),
      [m2, x, y],
      'by registration height, then id',
    );
    assert.deepEqual(list.miners[0], {
      id: m2,
      name: 'miner-2',
      address: A(2),
      reputationScore: 90,
      capabilities: ['chat', 'code'],
      tasksCompleted: 1,
    });
    assert.deepEqual((await get(c, `/api/miners/${m3}`)).body, {
      id: m3,
      name: 'miner-3',
      address: A(3),
      reputationScore: 60,
      capabilities: ['chat'],
      tasksCompleted: 0,
    });
    assert.deepEqual((await get(c, `/api/miners/${m4}`)).body, {
      id: m4,
      name: 'miner-4',
      address: A(4),
      reputationScore: 0,
      capabilities: ['chat'],
      tasksCompleted: 0,
    });
    assert.deepEqual((await get(c, '/api/miners?limit=1&offset=1')).body, { miners: [list.miners[1]], total: 3 });
    assert.deepEqual((await get(c, `/api/miners/by-address/${A(2)}`)).body, list.miners[0]);
    assert.deepEqual((await get(c, `/api/miners/by-address/${A(2).toUpperCase().replace('OX', 'ox')}`)).body, list.miners[0], 'any case');
  }));

test('a non-miner address is JSON null; unknown ids 404; bad input 400', () =>
  withChain(async (c) => {
    const res = await c.app.request(`/api/miners/by-address/${STRANGER}`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'null');
    assertError(await get(c, `/api/miners/${'ab'.repeat(32)}`), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/miners/xyz'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/miners/by-address/ox123'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/miners?limit=-1'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/miners/?offset=abc'), 400, 'INVALID_PARAMS');
  }));
