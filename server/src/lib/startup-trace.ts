import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * `GATEHOUSE_STARTUP_TRACE=1`: the start-up's phases on stderr, one line each, as milliseconds since
 * the process started (`performance.now()` counts from it) and the phase's own length, with the
 * process's CPU time so far (user + system, all threads: V8 compiles WebAssembly on helper threads)
 * and, on Linux, the main thread's alone (what a quiet machine's start-up waits for).
 * Off, `mark` costs one comparison. Used to trace issue #20's start-up regression.
 */
const enabled = process.env.GATEHOUSE_STARTUP_TRACE === '1';
let last = 0;

export function startupMark(phase: string): void {
  if (!enabled) return;
  const now = performance.now();
  const { user, system } = process.cpuUsage();
  process.stderr.write(
    `startup ${phase.padEnd(22)} at ${now.toFixed(0).padStart(5)} ms  +${(now - last).toFixed(0).padStart(4)} ms  cpu ${((user + system) / 1000).toFixed(0)} ms${mainThreadCpu()}\n`,
  );
  last = now;
}

/** The main thread's user + system time from /proc/thread-self/stat (clock ticks of 10 ms), or nothing elsewhere. */
function mainThreadCpu(): string {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return `  main thread ${(Number(fields[11]) + Number(fields[12])) * 10} ms`;
  } catch {
    return '';
  }
}

export const startupTraceEnabled = enabled;
