/** Worker side of VerifyPool: checks signatures with the one consensus rule, and stored blocks from their bytes. */
import { parentPort } from 'node:worker_threads';
import { verifySignature } from '../../core/signature.ts';
import { checkBlocks, type BlockCheckJob } from './blockCheckJob.ts';
import { eachItem, type VerifyJob } from './verifyJob.ts';

// Started only as a worker thread (node/verification/verifyPool.ts), where the parent's port exists.
const port = parentPort;
if (!port) throw new Error('verifyWorker runs as a worker thread');

port.on('message', (job: VerifyJob | BlockCheckJob) => {
  if ('ends' in job) {
    const verdicts = checkBlocks(job);
    port.postMessage({ id: job.id, ...verdicts }, [verdicts.signatures.buffer, verdicts.txBytes.buffer]);
    return;
  }
  const bad: number[] = [];
  eachItem(job, (i, key, message, signature) => {
    if (!verifySignature(key, message, signature)) bad.push(i);
  });
  port.postMessage({ id: job.id, bad });
});
