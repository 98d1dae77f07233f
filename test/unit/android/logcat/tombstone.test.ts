import { parseNativeFrameLocation, parseTombstone } from '../../../../src/android/logcat/tombstone.js';
import { fixture } from './fixtures.js';

describe('parseTombstone', () => {
  it('reads a raw /data/tombstones file (Unity il2cpp, Android 9, armeabi-v7a)', () => {
    const t = parseTombstone(fixture('logcat/tombstone_unity_il2cpp_sigsegv_android9.txt').split('\n'))!;
    expect(t).toMatchObject({
      abi: 'arm',
      buildFingerprint: 'motorola/lake_n/lake_n:9/PPWS29.98-111-9/d601:user/release-keys',
      pid: 22334,
      tid: 22349,
      threadName: 'UnityMain',
      process: 'io.sentry.sample',
      uid: 10176,
      signalNumber: 11,
      signal: 'SIGSEGV',
      code: 'SEGV_MAPERR',
      faultAddress: '0x1c',
      cause: 'null pointer dereference',
      abortMessage: null,
    });
    expect(t.frames).toHaveLength(22);
    expect(t.frames[0]).toEqual({
      index: 0,
      pc: '002774a0',
      path: '/data/app/io.sentry.sample-pv2R51NWhYZM79U8V4nfJg==/lib/arm/libil2cpp.so',
      symbol: null,
      symbolOffset: null,
      buildId: 'db634b8310fcaa935b06b7d92b8902b3f114dcf7',
    });
    expect(t.frames[21]!.path).toBe('/data/app/io.sentry.sample-pv2R51NWhYZM79U8V4nfJg==/oat/arm/base.odex');
  });

  it("reads xCrash's native report (arm64, mangled symbols, fault addr 0x0)", () => {
    const t = parseTombstone(fixture('logcat/xcrash_native_sigsegv_arm64_android10.txt').split('\n'))!;
    expect(t).toMatchObject({
      abi: 'arm64',
      pid: 20501,
      tid: 20501,
      process: 'xcrash.sample',
      signal: 'SIGSEGV',
      faultAddress: '0x0',
    });
    expect(t.frames.length).toBeGreaterThanOrEqual(10);
    expect(t.frames[0]).toMatchObject({ pc: '000000000000b884', symbol: 'xc_test_call_4', symbolOffset: 24 });
    expect(t.frames[7]!.symbol).toBe('_ZN3art9ArtMethod6InvokeEPNS_6ThreadEPjjPNS_6JValueEPKc');
  });

  it('reads a tombstone printed to the flutter console (SIGABRT, no fault address, Cmdline)', () => {
    const lines = fixture('logcat/public/flutter-160138_console_native_sigabrt_tombstone.txt').split('\n');
    expect(parseTombstone(lines)).toMatchObject({
      abi: 'arm64',
      pid: 20792,
      tid: 21401,
      threadName: 'DartWorker',
      process: 'com.ventura.mvp',
      uid: 10406,
      commandLine: 'com.ventura.mvp',
      signal: 'SIGABRT',
      signalNumber: 6,
      code: 'SI_QUEUE',
      faultAddress: null,
      frames: [],
    });
  });

  it('reads frame locations: symbol+offset, APK-embedded libraries, BuildId, unsymbolised and <unknown>', () => {
    expect(parseNativeFrameLocation('/system/lib/libaudioutils.so (memcpy_to_float_from_i16+5)')).toEqual({
      path: '/system/lib/libaudioutils.so',
      symbol: 'memcpy_to_float_from_i16',
      symbolOffset: 5,
      buildId: null,
    });
    expect(
      parseNativeFrameLocation('/data/app/~~x==/com.a-y==/base.apk!libfoo.so (offset 0x32e9000) (BuildId: 29e9d7ae)'),
    ).toEqual({
      path: '/data/app/~~x==/com.a-y==/base.apk!libfoo.so',
      symbol: null,
      symbolOffset: null,
      buildId: '29e9d7ae',
    });
    expect(parseNativeFrameLocation('/system/lib64/libc.so (abort+164) (BuildId: abc)')).toMatchObject({
      symbol: 'abort',
      symbolOffset: 164,
      buildId: 'abc',
    });
    expect(
      parseNativeFrameLocation('/system/lib/libutils.so (android::Looper::pollOnce(int, int*, int*, void**)+92)'),
    ).toMatchObject({ symbol: 'android::Looper::pollOnce(int, int*, int*, void**)', symbolOffset: 92 });
    expect(parseNativeFrameLocation('<unknown>')).toMatchObject({ path: '<unknown>', symbol: null });
  });

  it('returns null for text that is no tombstone', () => {
    expect(parseTombstone(['hello', 'world'])).toBeNull();
  });
});
