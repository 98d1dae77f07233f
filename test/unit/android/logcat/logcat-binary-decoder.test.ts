import {
  encodeLogcatBinaryEntry,
  LogcatBinaryDecoder,
  priorityOfLevel,
} from '../../../../src/android/logcat/logcat-binary-decoder.js';
import { parseLogcatText } from '../../../../src/android/logcat/logcat-text-parser.js';
import { fixture } from './fixtures.js';

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const sample = {
  pid: 1234,
  tid: 1250,
  sec: 1_700_000_000,
  nsec: 123_456_789,
  priority: 6,
  tag: 'AndroidRuntime',
  message: 'FATAL EXCEPTION: main',
};

describe('LogcatBinaryDecoder', () => {
  it('reads v4 headers: pid, tid, time to the nanosecond, log id and uid', () => {
    const decoder = new LogcatBinaryDecoder();
    const [entry, ...rest] = decoder.push(encodeLogcatBinaryEntry({ ...sample, lid: 4, uid: 10123 }, 4));
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      time: '1700000000.123456789',
      timeMs: 1_700_000_000_123,
      pid: 1234,
      tid: 1250,
      level: 'E',
      tag: 'AndroidRuntime',
      message: 'FATAL EXCEPTION: main',
      uid: '10123',
      buffer: 'crash',
    });
    expect(decoder.stats).toEqual({ entries: 1, skippedBytes: 0, pendingBytes: 0 });
  });

  it('reads v1 (20-byte header), v3 (log id) and v2 (euid, when told)', () => {
    const v1 = new LogcatBinaryDecoder().push(encodeLogcatBinaryEntry(sample, 1))[0]!;
    expect(v1).toMatchObject({ pid: 1234, tid: 1250, tag: 'AndroidRuntime', message: 'FATAL EXCEPTION: main' });
    expect(v1.buffer).toBeUndefined();
    expect(v1.uid).toBeUndefined();
    expect(new LogcatBinaryDecoder().push(encodeLogcatBinaryEntry({ ...sample, lid: 3 }, 3))[0]).toMatchObject({
      buffer: 'system',
    });
    const v2 = new LogcatBinaryDecoder({ headerSize24: 'v2' }).push(
      encodeLogcatBinaryEntry({ ...sample, uid: 1000 }, 2),
    )[0]!;
    expect(v2).toMatchObject({ uid: '1000' });
    expect(v2.buffer).toBeUndefined();
  });

  it('maps every liblog priority to a level', () => {
    const levels = [2, 3, 4, 5, 6, 7].map(
      (priority) => new LogcatBinaryDecoder().push(encodeLogcatBinaryEntry({ ...sample, priority }))[0]!.level,
    );
    expect(levels).toEqual(['V', 'D', 'I', 'W', 'E', 'F']);
    expect(priorityOfLevel('A')).toBe(7);
  });

  it('decodes entries split at every byte boundary, and many entries in one chunk', () => {
    const entries = [
      encodeLogcatBinaryEntry({ ...sample, lid: 0 }),
      encodeLogcatBinaryEntry({ ...sample, lid: 0, tag: 'Tag', message: 'multi\nline\nmessage' }),
      encodeLogcatBinaryEntry({ ...sample, lid: 0, tag: '', message: '' }),
    ];
    const stream = concat(entries);
    const whole = new LogcatBinaryDecoder().push(stream);
    expect(whole.map((e) => e.message)).toEqual(['FATAL EXCEPTION: main', 'multi\nline\nmessage', '']);
    for (const size of [1, 2, 3, 5, 27, 28, 29]) {
      const decoder = new LogcatBinaryDecoder();
      const got = [];
      for (let i = 0; i < stream.length; i += size) got.push(...decoder.push(stream.subarray(i, i + size)));
      expect(got).toEqual(whole);
      expect(decoder.end()).toEqual({ truncatedBytes: 0 });
    }
  });

  it('reports a truncated final entry instead of guessing it', () => {
    const bytes = encodeLogcatBinaryEntry(sample);
    const decoder = new LogcatBinaryDecoder();
    expect(decoder.push(bytes.subarray(0, bytes.length - 3))).toEqual([]);
    expect(decoder.stats.pendingBytes).toBe(bytes.length - 3);
    expect(decoder.end()).toEqual({ truncatedBytes: bytes.length - 3 });
  });

  it('skips bytes that cannot start an entry and resynchronises on the next one', () => {
    const garbage = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x01]);
    const decoder = new LogcatBinaryDecoder();
    const got = decoder.push(concat([garbage, encodeLogcatBinaryEntry(sample)]));
    expect(got).toHaveLength(1);
    expect(got[0]!.message).toBe('FATAL EXCEPTION: main');
    expect(decoder.stats.skippedBytes).toBe(5);
  });

  it('decodes UTF-8 tags and messages, and drops the trailing newline writers leave', () => {
    const e = new LogcatBinaryDecoder().push(
      encodeLogcatBinaryEntry({ ...sample, tag: 'Tåg', message: '日本語\n' }),
    )[0]!;
    expect(e).toMatchObject({ tag: 'Tåg', message: '日本語' });
  });

  it('prints events-buffer payloads (tag number and typed values) as logcat does for unknown tags', () => {
    // am_on_resume_called: list [int 0, string "MainActivity", string "RESUME_ACTIVITY"]
    const strings = ['MainActivity', 'RESUME_ACTIVITY'].map((s) => new TextEncoder().encode(s));
    const payload: number[] = [];
    const u32 = (v: number) => payload.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff);
    u32(30022);
    payload.push(3, 3, 0);
    u32(0);
    for (const s of strings) {
      payload.push(2);
      u32(s.length);
      payload.push(...s);
    }
    const header = new Uint8Array(28);
    const view = new DataView(header.buffer);
    view.setUint16(0, payload.length, true);
    view.setUint16(2, 28, true);
    view.setInt32(4, 21356, true);
    view.setUint32(8, 21356, true);
    view.setUint32(12, 1_570_821_800, true);
    view.setUint32(20, 2, true);
    const e = new LogcatBinaryDecoder().push(concat([header, new Uint8Array(payload)]))[0]!;
    expect(e).toMatchObject({
      buffer: 'events',
      tag: '30022',
      level: 'I',
      message: '[0,MainActivity,RESUME_ACTIVITY]',
    });
  });

  it('round-trips a real capture: text → binary → entries with the same pids, tids, levels, tags and messages', () => {
    const text = parseLogcatText(fixture('logcat/cts_logcat_native_crash_angler_android7.txt'), { year: 2017 }).entries;
    const stream = concat(
      text.map((e, i) =>
        encodeLogcatBinaryEntry({
          pid: e.pid,
          tid: e.tid ?? 0,
          sec: Math.floor(e.timeMs! / 1000),
          nsec: (e.timeMs! % 1000) * 1e6,
          lid: ['main', 'radio', 'events', 'system', 'crash'].indexOf(e.buffer ?? 'main'),
          priority: priorityOfLevel(e.level),
          tag: e.tag,
          message: e.message,
          uid: i,
        }),
      ),
    );
    const decoded = new LogcatBinaryDecoder().push(stream);
    expect(
      decoded.map(({ pid, tid, level, tag, message, buffer, timeMs }) => ({
        pid,
        tid,
        level,
        tag,
        message,
        buffer,
        timeMs,
      })),
    ).toEqual(
      text.map(({ pid, tid, level, tag, message, buffer, timeMs }) => ({
        pid,
        tid,
        level,
        tag,
        message,
        buffer,
        timeMs,
      })),
    );
  });
});
