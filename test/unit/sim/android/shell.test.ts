import { parseShell, ShellSyntaxError } from '../../../../src/sim/android/shell/shell-parser.js';
import { memoryIO, newDevice, run } from './shell-io.js';
import type { SimulatedAndroidHandle } from '../../../../src/sim/android/create-simulated-android.js';

describe('device shell', () => {
  let android: SimulatedAndroidHandle;
  beforeEach(() => {
    android = newDevice();
  });
  afterEach(() => android.dispose());

  const argvs = (since = 0) => android.commandLog.slice(since).map((c) => c.argv);

  it("keeps quoted operators literal: echo 'a;b' runs only echo", async () => {
    const r = await run(android, "echo 'a;b'");
    expect(r.stdout).toBe('a;b\n');
    expect(argvs()).toEqual([['echo', 'a;b']]);
    expect(android.commandLog[0].commandLine).toBe("echo 'a;b'");
  });

  it('runs both commands of `echo a; id`', async () => {
    const r = await run(android, 'echo a; id');
    expect(r.stdout).toMatch(/^a\nuid=2000\(shell\)/);
    expect(argvs()).toEqual([['echo', 'a'], ['id']]);
  });

  it('handles double quotes, escapes and variable expansion', async () => {
    const r = await run(android, `X='hello world'; echo "$X" \\"q\\" "a\\$b" 'it'"'"'s' $X`);
    expect(r.stdout).toBe(`hello world "q" a$b it's hello world\n`);
    expect(argvs()[1]).toEqual(['echo', 'hello world', '"q"', 'a$b', "it's", 'hello', 'world']);
  });

  it('keeps an empty quoted argument and drops an empty unquoted expansion', async () => {
    await run(android, 'echo "" $NOPE x');
    expect(argvs()).toEqual([['echo', '', 'x']]);
  });

  it('evaluates && || and $?', async () => {
    const r = await run(android, 'false && echo no; echo $?; false || echo yes; true && echo "s=$?"');
    expect(r.stdout).toBe('1\nyes\ns=0\n');
  });

  it('reports unknown commands like mksh with status 127', async () => {
    const r = await run(android, 'frobnicate --now; echo $?');
    expect(r.stderr).toBe('/system/bin/sh: frobnicate: inaccessible or not found\n');
    expect(r.stdout).toBe('127\n');
  });

  it('executes command substitution, so an unquoted injection really runs and is logged', async () => {
    const r = await run(android, 'echo $(id -u) `echo tick`');
    expect(r.stdout).toBe('2000 tick\n');
    expect(argvs()).toEqual([
      ['id', '-u'],
      ['echo', 'tick'],
      ['echo', '2000', 'tick'],
    ]);
    const quoted = android.commandLog.length;
    const q = await run(android, "echo '$(id)'");
    expect(q.stdout).toBe('$(id)\n');
    expect(argvs(quoted)).toEqual([['echo', '$(id)']]);
  });

  it('pipes into grep, head, tail and wc', async () => {
    expect((await run(android, 'getprop | grep -F ro.build.version.sdk')).stdout).toBe(
      '[ro.build.version.sdk]: [34]\n',
    );
    expect((await run(android, 'getprop | grep -i -E "PRODUCT\\.(model|brand)"')).stdout).toBe(
      '[ro.product.brand]: [google]\n[ro.product.model]: [Pixel 7]\n',
    );
    expect((await run(android, 'echo -e "a\\nb\\nc" | grep -v b')).stdout).toBe('a\nc\n');
    expect((await run(android, 'echo -e "1\\n2\\n3\\n4" | head -n 2')).stdout).toBe('1\n2\n');
    expect((await run(android, 'echo -e "1\\n2\\n3\\n4" | tail -n 1')).stdout).toBe('4\n');
    expect((await run(android, 'echo -e "1\\n2\\n3" | wc -l')).stdout).toBe('3\n');
    const none = await run(android, 'echo a | grep zzz; echo $?');
    expect(none.stdout).toBe('1\n');
  });

  it('ends an endless producer when the reader is done (SIGPIPE)', async () => {
    const r = await run(android, 'logcat | head -n 3');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('applies redirections in order', async () => {
    const r = await run(
      android,
      'cat /nope 2>/dev/null; echo $?; cat /nope 2>&1 >/dev/null | grep -c "No such"; ls /nope >/dev/null 2>&1 </dev/null',
    );
    expect(r.stdout).toBe('1\n1\n');
    expect(r.stderr).toBe('');
    await run(android, 'echo one > /data/local/tmp/f; echo two >> /data/local/tmp/f');
    expect((await run(android, 'cat < /data/local/tmp/f')).stdout).toBe('one\ntwo\n');
    const denied = await run(android, 'echo x > /system/x');
    expect(denied.stderr).toBe("/system/bin/sh: can't create /system/x: Read-only file system\n");
    expect(denied.code).toBe(1);
  });

  it('supports export, prefix assignments, exec, sh -c and exit', async () => {
    const r = await run(
      android,
      'export A=1; B=2 echo "$A$B"; exec echo done; sh -c "echo inner; exit 3"; echo $?; exit 4; echo never',
    );
    expect(r.stdout).toBe('1\ndone\ninner\n3\n');
    expect(r.code).toBe(4);
    const prefixed = android.commandLog.find((c) => c.argv[0] === 'echo' && c.assignments.B === '2');
    expect(prefixed?.argv).toEqual(['echo', '1']);
  });

  it('reports syntax errors without running anything', async () => {
    const r = await run(android, 'echo "unterminated');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\/system\/bin\/sh: syntax error/);
    expect(android.commandLog).toHaveLength(0);
    expect(() => parseShell('a && ')).toThrow(ShellSyntaxError);
    expect(() => parseShell('(id)')).toThrow(ShellSyntaxError);
  });

  it('parses fds, comments and background lists', () => {
    const s = parseShell('logcat -d 2>/dev/null # trailing comment\nsleep 1 &');
    expect(s.lists).toHaveLength(2);
    expect(s.lists[0].pipelines[0].commands[0].redirections).toEqual([
      { fd: 2, op: '>', target: expect.objectContaining({ raw: '/dev/null' }) },
    ]);
    expect(s.lists[1].background).toBe(true);
  });

  it('stops sleep when the stream is aborted', async () => {
    const m = memoryIO();
    const pending = android.exec('sleep 30; echo after', m.io, 'shell_v2');
    setTimeout(() => m.controller.abort(), 20);
    const code = await pending;
    expect(code).toBe(130);
    expect(m.stdout().toString()).toBe('');
  });
});
