import { hashPassword } from '../../../server/src/lib/passwords/password-hasher.ts';

/** argon2id hashes per second at the platform's parameters, `parallel` at a time, for `seconds`. */
export async function measureArgon2Capacity(parallel: number, seconds: number): Promise<number> {
  let done = 0;
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      await hashPassword('benchmark password');
      done++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: parallel }, worker));
  return done / ((Date.now() - started) / 1000);
}
