import net from 'node:net';

/**
 * Approximate locations of client addresses (IP_LOCATIONS): named networks such as office ranges,
 * `10.0.0.0/8=Head office;192.168.10.0/24=Branch office`. The first matching network names the place.
 */
export interface IpLocation {
  cidr: string;
  place: string;
}

export type IpLocator = (address: string | null) => string | null;

/** Parses IP_LOCATIONS; throws an Error naming the bad entry. */
export function parseIpLocations(text: string | undefined): IpLocation[] {
  if (!text) return [];
  return text
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      const cidr = (eq < 0 ? '' : entry.slice(0, eq)).trim();
      const place = (eq < 0 ? '' : entry.slice(eq + 1)).trim();
      const [address, bits] = cidr.split('/');
      const family = net.isIP(address ?? '');
      const prefix = Number(bits);
      if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128) || !place || place.length > 100) {
        throw new Error(`"${entry}" is not network/prefix=place (e.g. 10.0.0.0/8=Head office)`);
      }
      return { cidr, place };
    });
}

/** A locator over the configured networks: the place of the first network holding the address. */
export function createIpLocator(locations: readonly IpLocation[]): IpLocator {
  const lists = locations.map((l) => {
    const [address, bits] = l.cidr.split('/') as [string, string];
    const list = new net.BlockList();
    list.addSubnet(address, Number(bits), net.isIP(address) === 6 ? 'ipv6' : 'ipv4');
    return { list, place: l.place };
  });
  return (address) => {
    if (!address || lists.length === 0) return null;
    const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
    const family = net.isIP(plain);
    if (!family) return null;
    return lists.find((l) => l.list.check(plain, family === 6 ? 'ipv6' : 'ipv4'))?.place ?? null;
  };
}
