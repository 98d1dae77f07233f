import { lockHolder, parseAnrTraces } from '../../../../src/android/logcat/anr-traces.js';
import { fixture } from './fixtures.js';

describe('parseAnrTraces', () => {
  const [process, ...others] = parseAnrTraces(fixture('logcat/anr_traces_sentry_sample_android13.txt'));

  it('reads the process section header (a second "Waiting Channels" section has no threads)', () => {
    expect(others).toEqual([]);
    expect(process).toMatchObject({
      pid: 28941,
      time: '2023-04-04 22:06:31.064728684+0200',
      commandLine: 'io.sentry.samples.android',
      abi: 'arm64',
    });
    // `DALVIK THREADS (29)` counts attached threads; the dump adds one `(not attached)` binder thread.
    expect(process!.threads).toHaveLength(30);
  });

  it('finds the blocked main thread, its app frame, and the thread holding its lock', () => {
    const main = process!.threads.find((t) => t.tid === 1)!;
    expect(main).toMatchObject({ name: 'main', daemon: false, priority: 5, state: 'Blocked', sysTid: 28941 });
    expect(main.frames[0]).toEqual({
      className: 'io.sentry.samples.android.MainActivity$2',
      methodName: 'run',
      fileName: 'MainActivity.java',
      line: 177,
    });
    expect(main.frames).toHaveLength(9);
    expect(main.waitingToLock).toEqual({ monitor: '0x0d3a2f0a', className: 'java.lang.Object', heldByTid: 5 });
    const holder = lockHolder(process!, main)!;
    expect(holder).toMatchObject({ name: 'Thread-9', tid: 5, state: 'Sleeping' });
    expect(holder.locked).toEqual(['0x09228c2d', '0x0d3a2f0a']);
    expect(holder.frames[3]).toMatchObject({ className: 'io.sentry.samples.android.MainActivity$1', line: 162 });
    expect(lockHolder(process!, holder)).toBeNull();
  });

  it('reads native frames, daemon flags and threads not attached to the runtime', () => {
    const catcher = process!.threads[0]!;
    expect(catcher).toMatchObject({ name: 'Signal Catcher', daemon: true, priority: 10, tid: 6, state: 'Runnable' });
    expect(catcher.nativeFrames).toHaveLength(11);
    expect(catcher.nativeFrames[0]).toMatchObject({ index: 0, path: '/apex/com.android.art/lib64/libart.so' });
    expect(catcher.frames).toEqual([]);
    const detached = process!.threads[process!.threads.length - 1]!;
    expect(detached).toMatchObject({ name: 'binder:28941_3', tid: null, state: '(not attached)', sysTid: 29028 });
    expect(detached.nativeFrames).toHaveLength(8);
  });

  it('returns no process for text without sections', () => {
    expect(parseAnrTraces('nothing here\n"x" prio=5 tid=1 Blocked')).toEqual([]);
  });
});
