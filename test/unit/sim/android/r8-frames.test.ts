import { minifiedFrame, type R8Frames } from '../../../../src/sim/android/r8-frames.js';

const table: R8Frames = {
  source_file: 'r8-map-id-12c892e',
  methods: [
    {
      class: 'com.example.notes.data.NoteStore',
      method: 'requireOpen',
      first: 55,
      last: 60,
      obfuscated_class: 'a.a',
      obfuscated_method: 'b',
      obfuscated_first: 8,
    },
  ],
};

describe('minified crash frames of the simulated device', () => {
  it('prints a covered frame as R8 code does: renamed class and method, minified line, map id as source', () => {
    expect(minifiedFrame('com.example.notes.data.NoteStore.requireOpen(NoteStore.kt:58)', table)).toBe(
      'a.a.b(r8-map-id-12c892e:11)',
    );
    expect(minifiedFrame('com.example.notes.data.NoteStore.requireOpen(NoteStore.kt)', table)).toBe(
      'a.a.b(r8-map-id-12c892e:8)',
    );
  });

  it('leaves frames the mapping does not cover as they are (framework code, lines outside the method)', () => {
    for (const frame of [
      'android.view.View.performClick(View.java:7659)',
      'com.example.notes.data.NoteStore.requireOpen(NoteStore.kt:61)',
      'com.example.notes.data.NoteStore.other(NoteStore.kt:58)',
      'not a frame',
    ])
      expect(minifiedFrame(frame, table)).toBe(frame);
  });
});
