// The sandbox's thread: runs rendering scripts in QuickJS (WebAssembly), one at a time, and finishes
// their output here too (render-output.mjs: size limit, plain-text part, variables' schema). Plain
// JavaScript so that Node starts it with no loader. The parent (sandbox-pool.ts) gives it the
// runtime script and the limits at start, sends { id, driver, finish } and gets { id, output } or
// { id, error, limit? }; it terminates this thread when a job outlives the hard deadline (a single
// native operation can run long between two checks of the interrupt handler).
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModule } from 'quickjs-emscripten';
import { finishRender, OutputLimitError } from './render-output.mjs';

const { runtimeScript, timeoutMs, memoryBytes } = workerData;
let quickJs = newQuickJSWASMModule();

parentPort.on('message', async ({ id, driver, finish }) => {
  const module = await quickJs;
  let output;
  try {
    output = run(module, driver);
  } catch (error) {
    // A failed script (stack overflow, out of memory) may leave the instance unusable: take a new one.
    quickJs = newQuickJSWASMModule();
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    return;
  }
  try {
    parentPort.postMessage({ id, output: finishRender(output, finish) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    parentPort.postMessage({ id, error: message, ...(error instanceof OutputLimitError ? { limit: true } : {}) });
  }
});

// The parent dispatches nothing (and starts no deadline) before the sandbox is loaded.
await quickJs;
parentPort.postMessage({ ready: true });

function run(module, driver) {
  const runtime = module.newRuntime();
  // The owner's script gets the whole budget: the clock starts once React is loaded (trusted code,
  // bounded by the parent's hard deadline), so a loaded machine does not eat the owner's time.
  let deadline = Number.POSITIVE_INFINITY;
  let timedOut = false;
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(256 * 1024);
  runtime.setInterruptHandler(() => {
    timedOut = Date.now() > deadline;
    return timedOut;
  });
  const context = runtime.newContext();
  try {
    evaluate(context, runtimeScript, 'runtime.js', () => timedOut);
    deadline = Date.now() + timeoutMs;
    return evaluate(context, driver, 'email.js', () => timedOut);
  } finally {
    try {
      context.dispose();
      runtime.dispose();
    } catch {
      // Freeing after a failed script can assert inside QuickJS; the instance is replaced above.
    }
  }
}

function evaluate(context, code, filename, timedOut) {
  const result = context.evalCode(code, filename);
  if (result.error) {
    const thrown = context.dump(result.error);
    result.error.dispose();
    if (timedOut()) throw new Error(`The email took longer than ${timeoutMs} ms to render (interrupted).`);
    throw new Error(describeThrown(thrown));
  }
  const value = context.dump(result.value);
  result.value.dispose();
  return typeof value === 'string' ? value : '';
}

function describeThrown(thrown) {
  if (thrown && typeof thrown === 'object') {
    const { name, message } = thrown;
    const text = `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : JSON.stringify(thrown)}`;
    if (/out of memory/i.test(text)) return `The email used more than ${Math.round(memoryBytes / 1024 / 1024)} MB of memory: ${text}`;
    if (/stack overflow/i.test(text)) return `The email overflowed the stack: ${text}`;
    return text;
  }
  if (thrown === null) return 'The email threw null (out of memory or interrupted).';
  return `The email threw ${JSON.stringify(thrown)}`;
}
