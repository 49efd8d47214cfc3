/**
 * Compares the time of two kinds of request on a machine that may be busy: samples are taken in
 * pairs, the order within a pair alternating, so load hits both alike. Reports both medians and how
 * often the first was the slower of its pair: about half when the two cannot be told apart, near
 * all or none when they can (a one-request guess would then be right that often).
 */
export async function compareTimings(
  rounds: number,
  first: () => Promise<unknown>,
  second: () => Promise<unknown>,
  between: () => Promise<unknown> = async () => undefined,
): Promise<{ firstMedian: number; secondMedian: number; firstSlowerShare: number; summary: string }> {
  const time = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    const elapsed = performance.now() - started;
    await between();
    return elapsed;
  };
  const firsts: number[] = [];
  const seconds: number[] = [];
  let firstSlower = 0;
  for (let round = 0; round < rounds; round++) {
    let a: number;
    let b: number;
    if (round % 2 === 0) {
      a = await time(first);
      b = await time(second);
    } else {
      b = await time(second);
      a = await time(first);
    }
    firsts.push(a);
    seconds.push(b);
    if (a > b) firstSlower += 1;
  }
  const firstMedian = median(firsts);
  const secondMedian = median(seconds);
  const firstSlowerShare = firstSlower / rounds;
  return {
    firstMedian,
    secondMedian,
    firstSlowerShare,
    summary: `medians ${firstMedian.toFixed(2)} ms vs ${secondMedian.toFixed(2)} ms, first slower in ${Math.round(firstSlowerShare * 100)} % of ${rounds} pairs`,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
