// End-to-end test of the scoring worker's protocol in real Chromium: requests, transferred
// file bytes, progress replies, errors for unknown operations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, newPage, startWorker, App } from './support.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('the worker answers ping, reports progress over transferred files, and names unknown ops', async () => {
  const { page, context, errors } = await newPage(env.browser);
  const app = new App(page, env.base);
  await app.goto('/');
  const handle = await startWorker(page);
  const replies = await page.evaluate(async (worker) => {
    const seen = [];
    const done = new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error(`timed out; replies so far: ${JSON.stringify(seen)}`)), 10000);
      worker.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
      worker.onmessage = (e) => {
        seen.push(e.data);
        if (seen.filter((m) => m.kind !== 'progress').length === 3) resolve();
      };
    });
    worker.postMessage({ id: 1, op: 'sys.ping', args: '{"hello":"world"}', files: [] });
    const a = new Uint8Array([1, 2, 3]);
    const b = new Uint8Array(1000);
    worker.postMessage({ id: 2, op: 'sys.sizes', args: 'null',
      files: [{ name: 'a.jsonl', data: a }, { name: 'b.csv', data: b }] }, [a.buffer, b.buffer]);
    worker.postMessage({ id: 3, op: 'nope.op', args: 'null', files: [] });
    await done;
    worker.terminate();
    return { seen, transferred: a.byteLength === 0 && b.byteLength === 0 };
  }, handle);
  const byId = (id, kind) => replies.seen.filter((m) => m.id === id && m.kind === kind);
  assert.equal(byId(1, 'ok')[0].result, '{"hello":"world"}');
  assert.deepEqual(JSON.parse(byId(2, 'ok')[0].result), [{ name: 'a.jsonl', bytes: 3 }, { name: 'b.csv', bytes: 1000 }]);
  assert.deepEqual(byId(2, 'progress').map((m) => [m.done, m.total, m.label]), [[1, 2, 'a.jsonl'], [2, 2, 'b.csv']]);
  assert.equal(byId(3, 'err')[0].error, 'unknown worker operation "nope.op"');
  assert.ok(replies.transferred, 'file buffers were transferred, not copied');
  assert.deepEqual(errors, []);
  await context.close();
});
