/**
 * The serving peer of the sync benchmark in a process of its own, so the CPU the importing node
 * spends is counted apart from what serving costs: `node test/bench/syncPeer.ts DATA_DIR`,
 * forked with IPC. Started as `ombra start` starts a node (p2p on loopback); it sends
 * `{address}` when listening, answers `'cpu'` with `{cpu}` (its process CPU in microseconds
 * so far) and stops on `'stop'`.
 */
import { launch } from '../../launch/launch.ts';

const [dataDir] = process.argv.slice(2);
const peer = await launch({ dataDir, dev: false, httpHost: '127.0.0.1', httpPort: 0, p2p: { port: 0 } });
const cpuNow = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: cpuNow() });
  else if (m === 'stop') void peer.stop().then(() => process.exit(0));
});
process.send!({ address: peer.p2p!.addresses()[0] });
