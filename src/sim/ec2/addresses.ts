/** Private addresses of simulated instances, from which their node names come. */

/**
 * A private address not in `used` (then added to it): EC2 never gives two instances one address, and the node name
 * comes from it (at 5,000 instances, random draws repeat about once in two runs).
 */
export function freeAddress(random: { next(): number }, used: Set<string>): number[] {
  for (;;) {
    const octets = [
      10,
      Math.floor(random.next() * 256),
      Math.floor(random.next() * 256),
      1 + Math.floor(random.next() * 254),
    ];
    const ip = octets.join('.');
    if (used.has(ip)) continue;
    used.add(ip);
    return octets;
  }
}
