/** Worker side of VerifyPool: checks signatures with the one consensus rule. */
import { parentPort } from 'node:worker_threads';
import { verifySignature } from '../core/signature.ts';

/** A batch: parallel arrays of public keys, messages (tx hashes) and signatures. */
export interface VerifyJob {
  id: number;
  keys: string[];
  messages: string[];
  signatures: string[];
}

// Started only as a worker thread (node/verifyPool.ts), where the parent's port exists.
const port = parentPort;
if (!port) throw new Error('verifyWorker runs as a worker thread');

port.on('message', (job: VerifyJob) => {
  const bad: number[] = [];
  for (let i = 0; i < job.keys.length; i++) {
    if (!verifySignature(job.keys[i], job.messages[i], job.signatures[i])) bad.push(i);
  }
  port.postMessage({ id: job.id, bad });
});
