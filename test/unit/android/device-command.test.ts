import { joinCommands, sh } from '../../../src/android/device-command.js';
import { deviceKindOf, emulatorConsolePort, isWirelessSerial } from '../../../src/android/device-kind.js';

describe('sh', () => {
  it('quotes every interpolated value as one shell word', () => {
    expect(sh`am force-stop ${'com.example'}`.text).toBe("am force-stop 'com.example'");
    expect(sh`echo ${"it's; rm -rf / $(id) `id`"}`.text).toBe(`echo 'it'"'"'s; rm -rf / $(id) \`id\`'`);
    expect(sh`pm grant ${['a b', '-x']}`.text).toBe("pm grant 'a b' '-x'");
    expect(sh`sleep ${3}`.text).toBe('sleep 3');
    expect(() => sh`x ${1.5}`).toThrow(TypeError);
    expect(() => sh`x ${'a\0b'}`).toThrow();
  });

  it('composes commands without re-quoting them', () => {
    const inner = sh`settings get global ${'wifi_on'}`;
    expect(sh`${inner}; echo done`.text).toBe("settings get global 'wifi_on'; echo done");
    expect(joinCommands([sh`a`, sh`b ${'c'}`], ' && ').text).toBe("a && b 'c'");
  });
});

describe('device kind', () => {
  it('reads the connection kind from the serial', () => {
    expect(deviceKindOf('emulator-5554')).toBe('emulator');
    expect(deviceKindOf('127.0.0.1:5555')).toBe('wireless');
    expect(deviceKindOf('192.168.1.7:37099')).toBe('wireless');
    expect(deviceKindOf('adb-R58M12ABCDE-Xyz12a._adb-tls-connect._tcp')).toBe('wireless');
    expect(deviceKindOf('adb-R58M12ABCDE._adb._tcp')).toBe('wireless');
    expect(deviceKindOf('R58M12ABCDE')).toBe('physical');
    expect(isWirelessSerial('emulator-5554')).toBe(false);
    expect(emulatorConsolePort('emulator-5556')).toBe(5556);
    expect(emulatorConsolePort('R58')).toBeNull();
  });
});
