import { parseProguardMapping, parseRelaxedJson } from '../../../../src/android/retrace/proguard-mapping.js';
import { fixture } from '../logcat/fixtures.js';

describe('parseProguardMapping', () => {
  it('reads the header of a real R8 mapping, pg_map_id included', () => {
    const m = parseProguardMapping(fixture('retrace/sentry_mapping-inlines.txt'));
    expect(m.header).toEqual({
      compiler: 'R8',
      compilerVersion: '2.0.74',
      minApi: '16',
      pgMapId: '5b46fdc',
      pgMapHash: null,
      mappingVersion: null,
    });
    expect(m.problems).toEqual([]);
    expect(m.classByObfuscatedName('e.a.c.a')?.originalName).toBe(
      'io.sentry.sample.-$$Lambda$r3Avcbztes2hicEObh02jjhQqd4',
    );
    expect(m.classByOriginalName('androidx.activity.OnBackPressedCallback')?.obfuscatedName).toBe('c.a.b');
  });

  it('keeps inline entries in file order with their ranges and qualified original classes', () => {
    const m = parseProguardMapping(fixture('retrace/sentry_mapping-inlines.txt'));
    const t = m.classByObfuscatedName('io.sentry.sample.MainActivity')!.methods.get('t')!;
    expect(t.map((e) => [e.obfuscatedStart, e.obfuscatedEnd, e.originalName, e.originalStart, e.originalEnd])).toEqual([
      [1, 1, 'bar', 54, 54],
      [1, 1, 'foo', 44, null],
      [1, 1, 'onClickHandler', 40, null],
    ]);
    expect(t[2]).toMatchObject({ returnType: 'void', parameters: 'android.view.View', originalClass: null });
    const onCreate = m.classByObfuscatedName('io.sentry.sample.MainActivity')!.methods.get('onCreate')!;
    expect(onCreate[4]).toMatchObject({
      originalClass: 'androidx.appcompat.app.AppCompatActivity',
      originalName: 'setSupportActionBar',
      parameters: 'androidx.appcompat.widget.Toolbar',
    });
  });

  it('reads fields, pg_map_hash, sourceFile, synthesized, outline, outlineCallsite and rewriteFrame metadata', () => {
    const m = parseProguardMapping(
      [
        '# compiler: R8',
        '# pg_map_id: 0123abc',
        '# pg_map_hash: SHA-256 0123abcdef',
        '# {"id":"com.android.tools.r8.mapping","version":"2.2"}',
        'com.example.Foo -> a:',
        '# {"id":"sourceFile","fileName":"Foo.kt"}',
        '    int count -> a',
        '    java.lang.String name -> b',
        '    1:2:int outline() -> c',
        '    # {"id":"com.android.tools.r8.outline"}',
        '    27:27:int caller(int):0:0 -> d',
        "    # { id: 'com.android.tools.r8.outlineCallsite', positions: { '1': 4, '2': 5 }, outline: 'La;c()I' }",
        '    4:4:void inner():23:23 -> e',
        '    4:4:void outer(int, long):7 -> e',
        "    # {'id':'com.android.tools.r8.rewriteFrame','conditions':['throws(Ljava/lang/NullPointerException;)'],'actions':['removeInnerFrames(1)']}",
        'com.example.Foo$$ExternalSyntheticLambda0 -> b:',
        '# {"id":"com.android.tools.r8.synthesized"}',
        '    void run() -> a',
        '    # {"id":"com.android.tools.r8.synthesized"}',
        '    # {"id":"some.future.Thing","x":1}',
      ].join('\n'),
    );
    expect(m.problems).toEqual([]);
    expect(m.header).toMatchObject({ pgMapId: '0123abc', pgMapHash: 'SHA-256 0123abcdef', mappingVersion: '2.2' });
    const foo = m.classByObfuscatedName('a')!;
    expect(foo.sourceFile).toBe('Foo.kt');
    expect(foo.fields.get('b')).toEqual([{ obfuscatedName: 'b', originalName: 'name', type: 'java.lang.String' }]);
    expect(foo.methods.get('c')![0]!.outline).toBe(true);
    expect([...foo.methods.get('d')![0]!.outlineCallsite!]).toEqual([
      [1, 4],
      [2, 5],
    ]);
    expect(foo.methods.get('e')![1]!.rewriteFrames).toEqual([
      { throws: ['java.lang.NullPointerException'], removeInnerFrames: 1 },
    ]);
    expect(foo.methods.get('e')![1]!.parameters).toBe('int,long');
    const lambda = m.classByObfuscatedName('b')!;
    expect(lambda.synthesized).toBe(true);
    expect(lambda.methods.get('a')![0]).toMatchObject({ synthesized: true });
    expect(lambda.methods.get('a')![0]!.metadata.map((x) => x.id)).toEqual([
      'com.android.tools.r8.synthesized',
      'some.future.Thing',
    ]);
  });

  it('lists malformed lines with their line numbers and keeps the rest', () => {
    const m = parseProguardMapping(
      [
        'this is not a mapping',
        'a.B -> c:',
        '    what is this',
        '    # {not json',
        '    void ok() -> d',
        '  int stray -> x',
      ].join('\n'),
    );
    expect(m.problems.map((p) => [p.line, p.reason])).toEqual([
      [1, 'expected `original.Class -> obfuscated.Class:`'],
      [3, 'expected a field or method mapping'],
      [4, 'metadata comment is not a JSON object with an "id"'],
    ]);
    expect(m.classByObfuscatedName('c')!.methods.get('d')).toHaveLength(1);
    expect(m.classCount).toBe(1);
  });

  it('parses an empty file to an empty mapping', () => {
    const m = parseProguardMapping('');
    expect(m.classCount).toBe(0);
    expect(m.header.pgMapId).toBeNull();
  });
});

describe('parseRelaxedJson', () => {
  it('reads strict JSON and the unquoted-key, single-quoted form', () => {
    expect(parseRelaxedJson('{"id":"a","n":[1,2.5,-3],"b":true,"z":null}')).toEqual({
      id: 'a',
      n: [1, 2.5, -3],
      b: true,
      z: null,
    });
    expect(parseRelaxedJson("{ id: 'x', list: ['a\\'b'], nested: { k: \"v\" } }")).toEqual({
      id: 'x',
      list: ["a'b"],
      nested: { k: 'v' },
    });
  });

  it('returns null for anything else', () => {
    for (const bad of ['{', '{id:}', '{"a":1} trailing', "{'a':'unterminated}", '[1,', 'nope']) {
      expect(parseRelaxedJson(bad)).toBeNull();
    }
  });
});
