/**
 * The real captures in test/fixtures/logcat (provenance in its README) replayed line by line through the crash
 * detector into CrashRecorder and a real event store: each crash becomes one event with the expected kind,
 * package, pid, exception / signal / reason and signature, grouped by the crashes projection.
 */
import { join } from 'node:path';
import { detectCrashes } from '../../../src/android/logcat/crash-detector.js';
import { parseLogcatText } from '../../../src/android/logcat/logcat-text-parser.js';
import type { EventStore } from '../../../src/events/event-store.js';
import { AppInstalled } from '../../../src/plugins/device-admin/device-admin.events.js';
import { InstalledBuildIndex } from '../../../src/plugins/device-admin/services/installed-build-index.js';
import { readCrashGroups } from '../../../src/plugins/logcat/crashes.projection.js';
import { CrashRecorder } from '../../../src/plugins/logcat/services/crash-recorder.js';
import { removeTempDirs, tempDir } from '../../support/event-store-fixtures.js';
import { openPluginStore } from '../../support/projection-spec.js';
import { fixture } from '../../unit/android/logcat/fixtures.js';

const SERIAL = 'emulator-5554';

type Expected = readonly [
  kind: 'java' | 'native' | 'anr',
  pkg: string | null,
  pid: number,
  what: string | null,
  signature: string,
];

const INPUT_TIMEOUT =
  'Input dispatching timed out (Waiting to send non-key event because the touched window has not finished processing certain input events that were delivered to it over 500.0ms ago.';

// [capture, the crashes it holds]
const CAPTURES: readonly (readonly [string, readonly Expected[]])[] = [
  [
    'cts_logcat_native_crash_angler_android7.txt',
    [
      [
        'native',
        null,
        11071,
        'SIGSEGV',
        'native:SIGSEGV@libaudioutils.so:memcpy_to_float_from_i16;libaudioflinger.so;libaudioflinger.so',
      ],
    ],
  ],
  ['xcrash_java_crash_with_logcat_android10.txt', []],
  [
    'public/android-issue-1_studio1_legacy_java_fullwidth_colon.txt',
    [
      [
        'java',
        'com.example.jameswald.android_issue_1',
        20024,
        'java.lang.NoSuchFieldError',
        'java:java.lang.NoSuchFieldError@com.example.jameswald.android_issue_1.lib.MainActivity.onCreate',
      ],
    ],
  ],
  [
    'public/droidcon-doppl-53_studio_legacy_anr.txt',
    [
      [
        'anr',
        'co.touchlab.droidcon.anon',
        27003,
        INPUT_TIMEOUT,
        'anr:co.touchlab.droidcon.anon:input-dispatching-timed-out',
      ],
    ],
  ],
  [
    'public/flutter-160138_console_native_sigabrt_tombstone.txt',
    [['native', 'com.ventura.mvp', 20792, 'SIGABRT', 'native:SIGABRT@']],
  ],
  [
    'public/flutter-70028_threadtime_anr.txt',
    [['anr', 'com.zxs.app', 4960, INPUT_TIMEOUT, 'anr:com.zxs.app:input-dispatching-timed-out']],
  ],
  [
    'public/frostwire-jlibtorrent-240_studio_legacy_native.txt',
    [['native', 'com.apkmatrix.components.ultradownloader.demo', 13915, 'SIGSEGV', 'native:SIGSEGV@']],
  ],
  [
    'public/huluwaservice-webapp-1_studio_legacy_native_x86.txt',
    [['native', 'com.hlw.movie', 2363, 'SIGSEGV', 'native:SIGSEGV@libhoudini.so']],
  ],
  [
    'public/lockpattern-5_studio_legacy_anr_wide_continuation.txt',
    [['anr', 'com.star.loackpattern', 29897, INPUT_TIMEOUT, 'anr:com.star.loackpattern:input-dispatching-timed-out']],
  ],
  [
    'public/logfox-177_threadtime_java_r8.txt',
    [
      [
        'java',
        'com.f0x1d.logfox',
        16407,
        'java.lang.NullPointerException',
        'java:java.lang.NullPointerException@A4.d.l;q2.d.q;q2.d.j',
      ],
    ],
  ],
  [
    'public/matisse-kotlin-23_studio_legacy_anr_continuation.txt',
    [
      [
        'anr',
        'com.unistrong.mapoffline',
        1866,
        INPUT_TIMEOUT,
        'anr:com.unistrong.mapoffline:input-dispatching-timed-out',
      ],
    ],
  ],
  [
    'public/meditrak-207_threadtime_debug_tail_and_sigabrt.txt',
    [['native', null, 11194, 'SIGABRT', 'native:SIGABRT@']],
  ],
  [
    'public/simple-clock-563_threadtime_java_obfuscated.txt',
    [
      [
        'java',
        'com.simplemobiletools.clock',
        14701,
        'java.lang.NullPointerException',
        'java:java.lang.NullPointerException@com.simplemobiletools.clock.App$g.a;com.simplemobiletools.clock.App$g.j',
      ],
    ],
  ],
  [
    'public/tinytraveltracker-38_threadtime_java_theme_line.txt',
    [
      [
        'java',
        'com.rareventure.gps2',
        25819,
        'java.lang.InternalError',
        'java:java.lang.InternalError@java.lang.Thread.nativeCreate;java.lang.Thread.start;com.android.okhttp.okio.AsyncTimeout.scheduleTimeout',
      ],
    ],
  ],
  [
    'public/webrtc-sdk-android-26_studio_native_sigabrt.txt',
    [
      [
        'native',
        'com.myapp.app',
        30965,
        null,
        'native:unknown-signal@base.apk!libjingle_peerconnection_so.so;base.apk!libjingle_peerconnection_so.so;base.apk!libjingle_peerconnection_so.so',
      ],
    ],
  ],
];

interface EventRow {
  type: string;
  device: string;
  package: string | null;
  stream: string;
  actor: string;
  data: string;
}

function replay(store: EventStore, capture: string): void {
  const recorder = new CrashRecorder(() => store, new InstalledBuildIndex(() => store));
  const { entries } = parseLogcatText(fixture(`logcat/${capture}`), { year: 2020 });
  let seq = 0;
  for (const report of detectCrashes(entries)) {
    recorder.record(SERIAL, report, { first: seq, last: seq + report.entries.length - 1 });
    seq += report.entries.length;
  }
}

describe('real captures replayed into crash events', () => {
  afterAll(() => removeTempDirs());

  test.each(CAPTURES)('%s', (capture, expected) => {
    const store = openPluginStore(join(tempDir('droidwright-crash-corpus-'), 'events.db'));
    try {
      replay(store, capture);
      const rows = store
        .prepareRead(
          `SELECT type, device, package, stream, actor, data FROM events WHERE type LIKE 'app.%' ORDER BY seq`,
        )
        .all() as EventRow[];
      const got = rows.map((r) => {
        const d = JSON.parse(r.data) as Record<string, unknown>;
        const kind = { 'app.crashed': 'java', 'app.native_crashed': 'native', 'app.not_responding': 'anr' }[r.type];
        const what = (kind === 'java' ? d.exception_class : kind === 'native' ? d.signal : d.reason) as string | null;
        return [
          kind,
          d.package,
          d.pid,
          what && kind === 'anr' ? what.slice(0, INPUT_TIMEOUT.length) : what,
          d.signature,
        ];
      });
      expect(got).toEqual(expected);
      for (const r of rows) {
        const d = JSON.parse(r.data) as { lines: string[]; device_serial: string };
        expect(r.stream).toBe(`device:${SERIAL}`);
        expect(JSON.parse(r.actor)).toMatchObject({ kind: 'system', pid: process.pid });
        expect(d.lines.length).toBeGreaterThan(0);
        // The lines are threadtime, whatever format the capture was in.
        for (const line of d.lines) expect(line).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ [VDIWEFA] /);
      }
      expect(readCrashGroups(store, { packages: null, device: null, offset: 0, limit: 50 }).total).toBe(
        new Set(expected.map((e) => `${e[1]}|${e[4]}`)).size,
      );
    } finally {
      store.close();
    }
  });

  test('recurrences group; the build installed for the package is linked; other apps stay apart', () => {
    const store = openPluginStore(join(tempDir('droidwright-crash-corpus-'), 'events.db'));
    try {
      store.append(
        AppInstalled,
        {
          device_serial: SERIAL,
          package: 'com.simplemobiletools.clock',
          apk_path: '/p/app-release.apk',
          apk_sha256: 'a'.repeat(64),
          apk_size: 10,
          version_code: 7,
          version_name: '7.0',
          build_id: 'b7',
          module: ':app',
          variant: 'release',
          duration_ms: 5,
        },
        {
          stream: `device:${SERIAL}`,
          device: SERIAL,
          package: 'com.simplemobiletools.clock',
          actor: { kind: 'cli', pid: 1 },
        },
      );
      const clock = 'public/simple-clock-563_threadtime_java_obfuscated.txt';
      replay(store, clock);
      replay(store, clock);
      replay(store, 'public/logfox-177_threadtime_java_r8.txt');
      const { groups, total } = readCrashGroups(store, { packages: null, device: SERIAL, offset: 0, limit: 10 });
      expect(total).toBe(2);
      expect(groups.map((g) => [g.package, g.kind, g.crashes])).toEqual([
        ['com.f0x1d.logfox', 'java', 1],
        ['com.simplemobiletools.clock', 'java', 2],
      ]);
      expect(
        store.prepareRead('SELECT build_id, version_code, variant, crashes FROM crash_group_builds').all(),
      ).toEqual([{ build_id: 'b7', version_code: 7, variant: 'release', crashes: 2 }]);
      expect(readCrashGroups(store, { packages: ['com.f0x1d.logfox'], device: null, offset: 0, limit: 10 }).total).toBe(
        1,
      );
      expect(readCrashGroups(store, { packages: null, device: 'emulator-9999', offset: 0, limit: 10 }).total).toBe(0);
    } finally {
      store.close();
    }
  });
});
