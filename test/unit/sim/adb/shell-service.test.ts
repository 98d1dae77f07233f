import { parseShellService } from '../../../../src/sim/adb/shell-service.js';
import { ShellPacketDecoder, encodeShellPacket, encodeShellPackets } from '../../../../src/sim/adb/shell-v2-codec.js';

describe('shell service strings', () => {
  it.each([
    [
      'shell,v2,raw:getprop ro.build.version.sdk',
      { mode: 'shell_v2', pty: false, command: 'getprop ro.build.version.sdk' },
    ],
    ['shell,v2,TERM=xterm-256color,pty:ls', { mode: 'shell_v2', pty: true, command: 'ls' }],
    ['shell,v2,TERM=xterm-256color,pty:', { mode: 'shell_v2', pty: true, command: '' }],
    [
      'shell:echo && screencap -p 2>/dev/null',
      { mode: 'legacy', pty: false, command: 'echo && screencap -p 2>/dev/null' },
    ],
    ['shell:', { mode: 'legacy', pty: true, command: '' }],
    ["exec:cmd package 'install' -S 1234", { mode: 'exec', pty: false, command: "cmd package 'install' -S 1234" }],
    ['exec:a:b', { mode: 'exec', pty: false, command: 'a:b' }],
  ])('%s', (service, expected) => {
    expect(parseShellService(service)).toEqual(expected);
  });

  it.each(['sync:', 'reverse:forward:tcp:1 tcp:2', 'framebuffer:', 'shellx:ls', 'jdwp'])(
    'is not a shell: %s',
    (service) => {
      expect(parseShellService(service)).toBeNull();
    },
  );
});

describe('shell_v2 packets', () => {
  it('encodes id, little-endian length and data', () => {
    expect([...encodeShellPacket(3, Buffer.from([42]))]).toEqual([3, 1, 0, 0, 0, 42]);
  });

  it('splits data so no packet exceeds the WRTE size', () => {
    const wire = encodeShellPackets(1, Buffer.alloc(25, 1), 15);
    const packets = new ShellPacketDecoder().push(wire);
    expect(packets.map((p) => p.data.length)).toEqual([10, 10, 5]);
  });

  it('decodes packets that straddle chunk boundaries', () => {
    const wire = Buffer.concat([encodeShellPacket(0, Buffer.from('stdin')), encodeShellPacket(4, Buffer.alloc(0))]);
    const decoder = new ShellPacketDecoder();
    const seen = [
      ...decoder.push(wire.subarray(0, 3)),
      ...decoder.push(wire.subarray(3, 9)),
      ...decoder.push(wire.subarray(9)),
    ];
    expect(seen.map((p) => [p.id, p.data.toString()])).toEqual([
      [0, 'stdin'],
      [4, ''],
    ]);
  });
});
