/** How a device is attached, read from its serial alone (what adb itself knows). */
export type DeviceKind = 'emulator' | 'physical' | 'wireless';

const EMULATOR = /^emulator-\d+$/;
/** `host:port` (adb connect / adb tcpip) and mDNS names (`adb-XYZ._adb-tls-connect._tcp`, `._adb._tcp`). */
const WIRELESS = [
  /^[^:]+:\d+$/,
  /^\[[0-9a-fA-F:]+\]:\d+$/,
  /\._adb-tls-connect\._tcp\.?$/,
  /\._adb-tls-pairing\._tcp\.?$/,
  /\._adb\._tcp\.?$/,
];

export function deviceKindOf(serial: string): DeviceKind {
  if (EMULATOR.test(serial)) return 'emulator';
  if (WIRELESS.some((re) => re.test(serial))) return 'wireless';
  return 'physical';
}

/** True when adb reaches the device over the network, so cutting Wi-Fi would drop adb itself. */
export function isWirelessSerial(serial: string): boolean {
  return deviceKindOf(serial) === 'wireless';
}

/** `emulator-5554` → 5554 (the console port). */
export function emulatorConsolePort(serial: string): number | null {
  const m = /^emulator-(\d+)$/.exec(serial);
  return m ? Number(m[1]) : null;
}
