import { parseExitInfo, sizeToKb, type ExitRecord } from '../../../../src/android/parsers/exit-info.js';
import { corpus } from './corpus.js';

function records(file: string): readonly ExitRecord[] {
  const parsed = parseExitInfo(corpus(`exit-info/${file}`));
  if (!parsed.supported) throw new Error(`unsupported: ${parsed.reason}`);
  return parsed.records;
}

describe('parseExitInfo on the corpus', () => {
  it('reads Android 11 records with KB/MB sizes, ANR trace paths and null descriptions', () => {
    const r = records('android11.txt');
    expect(r).toHaveLength(4);
    expect(r[0]).toMatchObject({
      package: 'com.example.app',
      uid: 10152,
      timestamp: '2021-03-12 09:31:11.536',
      pid: 8123,
      user: 0,
      process: 'com.example.app',
      reasonCode: 4,
      reason: 'APP CRASH(EXCEPTION)',
      subreasonCode: 0,
      subreason: 'UNKNOWN',
      status: 0,
      importance: 100,
      pssKb: 55 * 1024,
      rssKb: 127 * 1024,
      description: 'crash',
      trace: null,
    });
    expect(r[1]!.reasonCode).toBe(6);
    expect(r[1]!.description).toBe(
      'Input dispatching timed out (8f2c1a3 com.example.app/com.example.app.MainActivity (server) is not responding. Waited 5001ms for FocusEvent(hasFocus=true))',
    );
    expect(r[1]!.trace).toBe('/data/anr/anr_2021-03-12-09-12-39-987');
    expect(r[2]).toMatchObject({ reason: 'LOW_MEMORY', pssKb: 0, rssKb: 0, description: null });
    expect(r[3]!.pssKb).toBe(9216);
  });

  it('reads sub-reasons, signals and secondary processes (Android 12)', () => {
    const r = records('android12.txt');
    expect(r.map((x) => x.reason)).toEqual(['USER REQUESTED', 'SIGNALED', 'OTHER KILLS BY SYSTEM']);
    expect(r[1]).toMatchObject({ process: 'com.example.app.debug:sync', status: 9 });
    expect(r[2]).toMatchObject({ subreasonCode: 1, subreason: 'TOO MANY CACHED', description: 'cached #17' });
  });

  it('keeps key=value text inside descriptions out of the fields (Android 13)', () => {
    const r = records('android13.txt');
    expect(r[0]).toMatchObject({ reasonCode: 5, reason: 'APP CRASH(NATIVE)', status: 11 });
    expect(r[2]!.description).toBe('excessive cpu 12450 during 300000 dur=1200000 limit=2');
    expect(r[2]).toMatchObject({ subreason: 'EXCESSIVE CPU', importance: 400 });
    expect(r[1]!.description).toBe(
      'depends on provider com.example.app/.data.Provider in dying proc com.example.app (adj 0)',
    );
  });

  it('orders records newest first across uid sections and reads GB sizes (Android 14)', () => {
    const r = records('android14.txt');
    expect(r.map((x) => x.timestamp)).toEqual([
      '2024-01-09 08:12:44.310',
      '2024-01-09 07:55:01.002',
      '2024-01-08 19:03:27.774',
    ]);
    expect(r[1]).toMatchObject({ uid: 1010187, user: 10, reasonCode: 6 });
    expect(r[2]).toMatchObject({ pssKb: 1024 * 1024, rssKb: 2 * 1024 * 1024 });
    expect(r[0]).toMatchObject({ reason: 'FREEZER', subreason: 'FREEZER BINDER IOCTL' });
  });

  it('reads Android 15 package updates', () => {
    expect(records('android15.txt')[0]).toMatchObject({ reasonCode: 16, reason: 'PACKAGE UPDATED', subreasonCode: 24 });
  });

  it('survives unknown codes, multi-line descriptions, locale times and malformed values', () => {
    const r = records('odd_fields.txt');
    expect(r).toHaveLength(3);
    expect(r[0]).toMatchObject({
      reasonCode: 17,
      reason: 'SOMETHING NEW',
      subreasonCode: 31,
      subreason: 'NEWER SUBREASON',
      importance: 230,
      description: 'first line of a description\nthat continues on a second line',
      trace: null,
    });
    // Undated records keep their order after the dated one.
    expect(r[1]).toMatchObject({
      timestamp: '3/20/25, 11:30 AM',
      timestampSortKey: null,
      pid: 4400,
      reasonCode: null,
      reason: null,
    });
    expect(r[2]).toMatchObject({
      process: 'com.example.app:bg',
      reasonCode: null,
      status: -1,
      pssKb: null,
      rssKb: null,
    });
  });

  it('reports no records and unsupported releases distinctly', () => {
    expect(parseExitInfo(corpus('exit-info/no_records.txt'))).toEqual({ supported: true, records: [] });
    const old = parseExitInfo(corpus('exit-info/below_api30.txt'));
    expect(old.supported).toBe(false);
    expect(old.supported === false && old.reason).toMatch(/Bad activity command/);
  });

  it('converts sizes', () => {
    expect(sizeToKb('12XB')).toBeNull();
    expect(sizeToKb('1234')).toBe(1234);
    expect(sizeToKb('2048B')).toBe(2);
  });
});
