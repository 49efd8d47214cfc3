import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

export type ConnectAttempt = { host: string; port: number };

const isLoopback = (address: string): boolean => isIP(address) !== 0 && ipaddr.process(address).range() === 'loopback';

/**
 * Records every TCP connection this process starts (`Socket#connect`, which http, https, tls and
 * nodemailer all go through) and stops, before any packet leaves, every one that would reach a
 * non-loopback address: an SSRF test must never send traffic to a private or metadata address,
 * even when the guard it tests is broken. Names are let through only to loopback addresses.
 */
export function installConnectionTripwire() {
  const attempts: ConnectAttempt[] = [];
  const original = Socket.prototype.connect;
  const blocked = () => Object.assign(new Error('connection tripwire: a non-loopback address'), { code: 'ETRIPWIRE' });
  Socket.prototype.connect = function (this: Socket, ...given: unknown[]) {
    // net.createConnection passes its normalized [options, callback] as one array.
    const args: unknown[] = Array.isArray(given[0]) ? (given[0] as unknown[]) : given;
    const first = args[0];
    const options = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as {
      path?: string;
      host?: string;
      port?: number | string;
      lookup?: LookupFunction;
    };
    if (options.path) return original.apply(this, given as never);
    const host = typeof options.host === 'string' ? options.host : 'localhost';
    attempts.push({ host, port: Number(options.port) });
    if (isIP(host) !== 0) {
      if (!isLoopback(host)) {
        process.nextTick(() => this.destroy(blocked()));
        return this;
      }
      return original.apply(this, given as never);
    }
    const resolve = options.lookup ?? (dnsLookup as unknown as LookupFunction);
    const guarded: LookupFunction = (hostname, lookupOptions, callback) =>
      resolve(hostname, lookupOptions, (error, address, family) => {
        const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
        if (!error && !addresses.every(isLoopback)) callback(blocked(), '', 4);
        else callback(error, address as never, family);
      });
    const rest = typeof first === 'object' && first !== null ? args.slice(1) : args.slice(2);
    return original.apply(this, [{ ...options, host, lookup: guarded }, ...rest] as never);
  } as typeof Socket.prototype.connect;
  return {
    attempts,
    /** The attempts to a port (every matrix row aims at its own listener's port). */
    to: (port: number) => attempts.filter((attempt) => attempt.port === port),
    uninstall: () => {
      Socket.prototype.connect = original;
    },
  };
}
