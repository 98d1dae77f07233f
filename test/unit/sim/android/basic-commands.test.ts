import { createHash } from 'node:crypto';
import { parseGetprop } from '../../../../src/android/parsers/getprop.js';
import { fakeClock, newDevice, run } from './shell-io.js';

describe('basic device commands', () => {
  const clock = fakeClock(Date.UTC(2024, 4, 17, 10, 30, 5, 250));
  const android = newDevice({ avd: 'Pixel_7_API_34', clock: clock.now, serialHint: 'EMULATOR34X1' });
  afterAll(() => android.dispose());

  it('getprop lists [key]: [value] lines and reads one key', async () => {
    const all = await run(android, 'getprop');
    expect(all.stdout).toMatch(/^\[[^\]]+\]: \[[^\]]*\]$/m);
    const props = parseGetprop(all.stdout);
    expect(props).toMatchObject({
      'ro.product.model': 'Pixel 7',
      'ro.build.version.sdk': '34',
      'ro.build.version.release': '14',
      'ro.product.cpu.abi': 'x86_64',
      'sys.boot_completed': '1',
      'ro.kernel.qemu': '1',
      'ro.boot.qemu.avd_name': 'Pixel_7_API_34',
      'ro.serialno': 'EMULATOR34X1',
    });
    expect((await run(android, 'getprop ro.build.fingerprint')).stdout).toBe(
      'google/sdk_gphone64_x86_64/emu64x:14/UE1A.230829.036/10754064:userdebug/dev-keys\n',
    );
    expect((await run(android, 'getprop no.such.prop')).stdout).toBe('\n');
    expect(android.banner()).toBe(
      'device::ro.product.name=sdk_gphone64_x86_64;ro.product.model=Pixel 7;ro.product.device=emu64x;features=shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,fixed_push_symlink_timestamp',
    );
    expect(android.avdName).toBe('Pixel_7_API_34');
  });

  it('setprop accepts debug properties and refuses read-only ones', async () => {
    expect((await run(android, 'setprop debug.droidwright 1 && getprop debug.droidwright')).stdout).toBe('1\n');
    const ro = await run(android, 'setprop ro.product.model Hacked');
    expect(ro.code).toBe(1);
    expect(ro.stderr).toBe("Failed to set property 'ro.product.model' to 'Hacked'.\nSee dmesg for error reason.\n");
  });

  it('files: mkdir, echo >, ls, ls -l, cat, sha256sum, rm', async () => {
    expect(
      (await run(android, 'mkdir /data/local/tmp/d && echo hello > /data/local/tmp/d/f.txt && ls /data/local/tmp/d'))
        .stdout,
    ).toBe('f.txt\n');
    const long = await run(android, 'ls -l /data/local/tmp/d');
    expect(long.stdout).toBe('total 8\n-rw-rw-rw- 1 shell shell     6 2024-05-17 10:30 f.txt\n');
    const sum = createHash('sha256').update('hello\n').digest('hex');
    expect((await run(android, 'sha256sum /data/local/tmp/d/f.txt')).stdout).toBe(`${sum}  /data/local/tmp/d/f.txt\n`);
    expect((await run(android, 'mkdir /data/local/tmp/d')).stderr).toBe("mkdir: '/data/local/tmp/d': File exists\n");
    expect((await run(android, 'rm /data/local/tmp/d')).stderr).toBe('rm: /data/local/tmp/d: Is a directory\n');
    expect((await run(android, 'rm -rf /data/local/tmp/d && ls /data/local/tmp/d')).stderr).toBe(
      'ls: /data/local/tmp/d: No such file or directory\n',
    );
    expect((await run(android, 'rm -f /data/local/tmp/missing; echo $?')).stdout).toBe('0\n');
    expect((await run(android, 'cat /data/local/tmp/missing')).stderr).toBe(
      'cat: /data/local/tmp/missing: No such file or directory\n',
    );
    expect((await run(android, 'rm /system/bin/ls')).stderr).toBe('rm: /system/bin/ls: Read-only file system\n');
    expect((await run(android, 'ls /system/bin | grep -c -E "^(am|pm|logcat|uiautomator)$"')).stdout).toBe('4\n');
    expect((await run(android, 'ls /sdcard/')).stdout).toContain('Download\n');
    expect((await run(android, 'ls /storage/emulated/0/Download; echo $?')).stdout).toBe('0\n');
  });

  it('the sync-service view of the file system sees what the shell wrote', async () => {
    await run(android, 'echo synced > /sdcard/Download/s.txt');
    expect(android.fs.readFile('/sdcard/Download/s.txt')?.toString()).toBe('synced\n');
    expect(android.fs.list('/sdcard/Download')?.map((e) => e.name)).toEqual(['s.txt']);
    android.fs.writeFile('/data/local/tmp/pushed.bin', Buffer.from([1, 2, 3]), 0o644, 1700000000);
    expect(android.fs.stat('/data/local/tmp/pushed.bin')).toEqual({ mode: 0o100644, size: 3, mtimeSec: 1700000000 });
    expect(() => android.fs.writeFile('/system/evil', Buffer.alloc(1), 0o644, 0)).toThrow(/Read-only file system/);
  });

  it('id, date, true/false', async () => {
    expect((await run(android, 'id')).stdout).toMatch(
      /^uid=2000\(shell\) gid=2000\(shell\) groups=2000\(shell\),1004\(input\).* context=u:r:shell:s0\n$/,
    );
    expect((await run(android, 'date')).stdout).toBe('Fri May 17 10:30:05 GMT 2024\n');
    expect((await run(android, 'date +%s')).stdout).toBe(`${Math.floor(clock.now() / 1000)}\n`);
    expect((await run(android, 'true; echo $?; false; echo $?')).stdout).toBe('0\n1\n');
  });

  it('ps -A, ps -o, pidof and kill', async () => {
    const ps = await run(android, 'ps -A');
    const lines = ps.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^USER\s+PID\s+PPID\s+VSZ\s+RSS\s+WCHAN\s+ADDR\s+S\s+NAME/);
    expect(lines.some((l) => /^system\s+587\s+340\s+\d+\s+\d+\s+\S+\s+0 S system_server$/.test(l))).toBe(true);
    expect((await run(android, 'ps -A -o PID,NAME | grep system_server')).stdout).toMatch(/^ *587 system_server\n$/);
    expect((await run(android, 'pidof system_server')).stdout).toBe('587\n');
    const none = await run(android, 'pidof com.example.notes; echo $?');
    expect(none.stdout).toBe('1\n');
    expect((await run(android, 'kill 587')).stderr).toBe('/system/bin/sh: kill: 587: Operation not permitted\n');
  });

  it('settings, svc, airplane mode, wm', async () => {
    expect((await run(android, 'settings get global airplane_mode_on')).stdout).toBe('0\n');
    await run(android, 'cmd connectivity airplane-mode enable');
    expect((await run(android, 'settings get global airplane_mode_on; cmd connectivity airplane-mode')).stdout).toBe(
      '1\nenabled\n',
    );
    await run(android, 'svc wifi disable; svc data disable');
    expect((await run(android, 'settings get global wifi_on; settings get global mobile_data')).stdout).toBe('0\n0\n');
    expect((await run(android, 'settings get secure no_such_key')).stdout).toBe('null\n');
    await run(android, 'settings put system screen_off_timeout 120000');
    expect((await run(android, 'settings list system | grep screen_off')).stdout).toBe('screen_off_timeout=120000\n');
    expect((await run(android, 'settings get bogus x')).stderr).toBe("Invalid namespace 'bogus'\n");
    expect((await run(android, 'wm size')).stdout).toBe('Physical size: 1080x2400\n');
    expect((await run(android, 'wm size 720x1600 && wm size')).stdout).toBe(
      'Physical size: 1080x2400\nOverride size: 720x1600\n',
    );
    await run(android, 'wm size reset');
    expect((await run(android, 'wm density')).stdout).toBe('Physical density: 420\n');
  });
});
