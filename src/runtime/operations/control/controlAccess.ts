import { isIP } from 'node:net';

/** True for an address or name that only this machine reaches: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const name = bare(host);
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The name of a Host header without its port, lower case, IPv6 without brackets; undefined when absent. */
export function hostHeaderName(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const text = header.trim().toLowerCase();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return end < 0 ? undefined : text.slice(1, end);
  }
  // A bare IPv6 address has colons of its own; a name or IPv4 address has at most the port's.
  if (isIP(text) === 6) return text;
  const colon = text.lastIndexOf(':');
  return colon < 0 ? text : text.slice(0, colon);
}

/**
 * Which Host headers the control server answers. Bound to loopback, only loopback names, the bound
 * address and the names the operator lists: a page on another site that rebinds its own name to
 * 127.0.0.1 (DNS rebinding) sends its own name and is refused, so the browser reads nothing. Bound
 * beyond loopback every route needs the token anyway, and the Host is checked only against a list
 * the operator gave (the machine's names cannot be known here).
 */
export function hostPolicy(
  boundHost: string,
  allowedHosts: readonly string[],
): (header: string | undefined) => boolean {
  const listed = new Set(allowedHosts.map(bare));
  if (!isLoopbackHost(boundHost) && listed.size === 0) return () => true;
  listed.add(bare(boundHost));
  return (header) => {
    const name = hostHeaderName(header);
    return name !== undefined && (isLoopbackHost(name) || listed.has(name));
  };
}

function bare(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
}
