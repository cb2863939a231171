import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../server/outbound/address-policy.js';

describe('which addresses a tenant URL may reach', () => {
  it.each([
    ['127.0.0.1', 'loopback address'],
    ['127.255.255.254', 'loopback address'],
    ['10.0.0.1', 'private address'],
    ['172.16.5.4', 'private address'],
    ['172.31.255.255', 'private address'],
    ['192.168.1.1', 'private address'],
    ['169.254.169.254', 'link-local address'],
    ['100.64.0.1', 'shared (CGNAT) address'],
    ['100.127.255.254', 'shared (CGNAT) address'],
    ['0.0.0.0', 'unspecified address'],
    ['224.0.0.1', 'multicast address'],
    ['239.255.255.250', 'multicast address'],
    ['255.255.255.255', 'broadcast address'],
    ['192.0.2.10', 'reserved address'],
    ['240.0.0.1', 'reserved address'],
    ['::1', 'loopback address'],
    ['::', 'unspecified address'],
    ['fd12:3456::1', 'private address'],
    ['fc00::1', 'private address'],
    ['fe80::1', 'link-local address'],
    ['ff02::1', 'multicast address'],
    ['::ffff:127.0.0.1', 'loopback address'],
    ['::ffff:7f00:1', 'loopback address'],
    ['::ffff:10.1.2.3', 'private address'],
    ['::ffff:169.254.169.254', 'link-local address'],
    ['::ffff:100.64.0.1', 'shared (CGNAT) address'],
    ['::127.0.0.1', 'loopback address'],
    ['64:ff9b::a00:1', 'reserved address'],
  ])('%s is refused as a %s', (address, reason) => {
    expect(refusalOf(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '93.184.215.14', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(refusalOf(address)).toBeNull();
  });

  it('an unreadable address is refused, never let through', () => {
    expect(refusalOf('not-an-ip')).toBe('unreadable address');
  });
});
