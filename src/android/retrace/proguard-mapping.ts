/**
 * The R8/ProGuard mapping file (`mapping.txt`):
 *
 * ```
 * # compiler: R8
 * # pg_map_id: 5b46fdc
 * # {"id":"com.android.tools.r8.mapping","version":"2.2"}
 * com.example.Foo -> a.a:
 * # {"id":"sourceFile","fileName":"Foo.kt"}
 *     int count -> b
 *     1:3:void run():10:12 -> a            (obfuscated lines 1-3 are original lines 10-12)
 *     4:4:void com.example.Bar.inlined():20:20 -> a
 *     4:4:void run():13 -> a               (same obfuscated range: inlined into run at line 13)
 *     void other(int,java.lang.String) -> b  (no line information)
 *     # {"id":"com.android.tools.r8.synthesized"}
 * ```
 *
 * `# {…}` metadata may be strict JSON or the relaxed form R8's own tests use (`{ id: 'x' }`); unknown ids are kept
 * verbatim and otherwise ignored, as R8 does.
 */

export interface MappingMetadata {
  readonly id: string;
  readonly [key: string]: unknown;
}

export interface RewriteFrameRule {
  /** Thrown class names (dotted) the rule applies to, from `throws(Lpkg/Class;)` conditions. */
  readonly throws: readonly string[];
  /** From `removeInnerFrames(n)` actions. */
  readonly removeInnerFrames: number;
}

export interface MethodMapping {
  readonly obfuscatedName: string;
  /** Obfuscated (minified) line range; null when the entry has none. */
  readonly obfuscatedStart: number | null;
  readonly obfuscatedEnd: number | null;
  /** The class the original method lives in when the entry names one (`void com.Bar.inlined()`), else null. */
  readonly originalClass: string | null;
  readonly originalName: string;
  readonly returnType: string;
  /** Parameter types, comma-separated without spaces: `int,java.lang.String`. */
  readonly parameters: string;
  /** Original line range; `originalEnd` is null for the `:line` form inline callers use. */
  readonly originalStart: number | null;
  readonly originalEnd: number | null;
  readonly synthesized: boolean;
  readonly outline: boolean;
  /** `outlineCallsite` positions: line in the outline → line in this (caller) method's obfuscated range. */
  readonly outlineCallsite: ReadonlyMap<number, number> | null;
  readonly rewriteFrames: readonly RewriteFrameRule[];
  readonly metadata: readonly MappingMetadata[];
}

export interface FieldMapping {
  readonly obfuscatedName: string;
  readonly originalName: string;
  readonly type: string;
}

export interface ClassMapping {
  readonly originalName: string;
  readonly obfuscatedName: string;
  /** From `# {"id":"sourceFile","fileName":…}`. */
  readonly sourceFile: string | null;
  readonly synthesized: boolean;
  /** Methods by obfuscated name, each list in file order (the order inline chains are read in). */
  readonly methods: ReadonlyMap<string, readonly MethodMapping[]>;
  readonly fields: ReadonlyMap<string, readonly FieldMapping[]>;
  readonly metadata: readonly MappingMetadata[];
}

export interface MappingHeader {
  readonly compiler: string | null;
  readonly compilerVersion: string | null;
  readonly minApi: string | null;
  /** `# pg_map_id:`: what R8 also writes into `r8-map-id-<id>` source markers; matches a crash to its build. */
  readonly pgMapId: string | null;
  /** `# pg_map_hash:` as written (`SHA-256 <hex>`). */
  readonly pgMapHash: string | null;
  /** From `# {"id":"com.android.tools.r8.mapping","version":…}`. */
  readonly mappingVersion: string | null;
}

export interface MappingProblem {
  /** 1-based line number in the mapping file. */
  readonly line: number;
  readonly text: string;
  readonly reason: string;
}

/**
 * Relaxed JSON as R8 writes and reads it: single- or double-quoted strings, unquoted keys. Returns null on anything
 * else (the caller records a problem and goes on; a bad comment never loses the mapping).
 */
export function parseRelaxedJson(text: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`unexpected ${JSON.stringify(text[i] ?? 'end')} at ${i}`);
  };
  const str = (): string => {
    const quote = text[i++]!;
    let out = '';
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        out += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[next ?? ''] ?? next ?? '';
        i += 2;
        continue;
      }
      out += text[i++];
    }
    if (text[i] !== quote) fail();
    i++;
    return out;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        let key: string;
        if (text[i] === '"' || text[i] === "'") key = str();
        else {
          const m = /^[A-Za-z_$][\w$.-]*/.exec(text.slice(i));
          if (!m) return fail();
          key = m[0];
          i += key.length;
        }
        ws();
        if (text[i++] !== ':') fail();
        obj[key] = value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail();
      }
    }
    if (c === '"' || c === "'") return str();
    const lit = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!lit) return fail();
    i += lit[0].length;
    return JSON.parse(lit[0]);
  };
  try {
    const result = value();
    ws();
    return i === text.length ? result : null;
  } catch {
    return null;
  }
}

const CLASS_LINE = /^(\S+) -> (\S+):$/;
const METHOD_LINE = /^(?:(\d+):(\d+):)?(\S+) ([^\s(]+)\(([^)]*)\)(?::(\d+)(?::(\d+))?)? -> (\S+)$/;
const FIELD_LINE = /^(\S+) (\S+) -> (\S+)$/;
const HEADER_LINE = /^#\s*([\w-]+):\s*(.*)$/;

interface MutableMethod {
  obfuscatedName: string;
  obfuscatedStart: number | null;
  obfuscatedEnd: number | null;
  originalClass: string | null;
  originalName: string;
  returnType: string;
  parameters: string;
  originalStart: number | null;
  originalEnd: number | null;
  synthesized: boolean;
  outline: boolean;
  outlineCallsite: Map<number, number> | null;
  rewriteFrames: RewriteFrameRule[];
  metadata: MappingMetadata[];
}

interface MutableClass {
  originalName: string;
  obfuscatedName: string;
  sourceFile: string | null;
  synthesized: boolean;
  methods: Map<string, MutableMethod[]>;
  fields: Map<string, FieldMapping[]>;
  metadata: MappingMetadata[];
}

function rewriteFrameRule(meta: MappingMetadata): RewriteFrameRule | null {
  const conditions = Array.isArray(meta.conditions) ? meta.conditions : [];
  const actions = Array.isArray(meta.actions) ? meta.actions : [];
  const throws: string[] = [];
  for (const c of conditions) {
    const m = typeof c === 'string' ? /^throws\(L(.+);\)$/.exec(c) : null;
    if (!m) return null;
    throws.push(m[1]!.replaceAll('/', '.'));
  }
  let removeInnerFrames = 0;
  for (const a of actions) {
    const m = typeof a === 'string' ? /^removeInnerFrames\((\d+)\)$/.exec(a) : null;
    if (!m) return null;
    removeInnerFrames += Number(m[1]);
  }
  return { throws, removeInnerFrames };
}

/** A parsed mapping: look classes up by obfuscated or original name. */
export class ProguardMapping {
  private readonly byObfuscated = new Map<string, ClassMapping>();
  private readonly byOriginal = new Map<string, ClassMapping>();

  constructor(
    readonly header: MappingHeader,
    classes: readonly ClassMapping[],
    readonly problems: readonly MappingProblem[],
  ) {
    for (const c of classes) {
      this.byObfuscated.set(c.obfuscatedName, c);
      this.byOriginal.set(c.originalName, c);
    }
  }

  classByObfuscatedName(name: string): ClassMapping | undefined {
    return this.byObfuscated.get(name);
  }

  classByOriginalName(name: string): ClassMapping | undefined {
    return this.byOriginal.get(name);
  }

  get classCount(): number {
    return this.byObfuscated.size;
  }
}

/** Parses a mapping file. Malformed lines are listed in `problems` and skipped; parsing never throws. */
export function parseProguardMapping(text: string): ProguardMapping {
  const header = {
    compiler: null as string | null,
    compilerVersion: null as string | null,
    minApi: null as string | null,
    pgMapId: null as string | null,
    pgMapHash: null as string | null,
    mappingVersion: null as string | null,
  };
  const classes: MutableClass[] = [];
  const problems: MappingProblem[] = [];
  let current: MutableClass | null = null;
  let lastMember: MutableMethod | null = null;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]!.replace(/\r$/, '');
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const body = line.replace(/^#\s*/, '');
      if (body.startsWith('{')) {
        const parsed = parseRelaxedJson(body);
        if (parsed === null || typeof parsed !== 'object' || typeof (parsed as { id?: unknown }).id !== 'string') {
          problems.push({ line: n + 1, text: raw, reason: 'metadata comment is not a JSON object with an "id"' });
          continue;
        }
        const meta = parsed as MappingMetadata;
        if (meta.id === 'com.android.tools.r8.mapping') {
          header.mappingVersion = typeof meta.version === 'string' ? meta.version : null;
        } else if (lastMember) {
          lastMember.metadata.push(meta);
          if (meta.id === 'com.android.tools.r8.synthesized') lastMember.synthesized = true;
          else if (meta.id === 'com.android.tools.r8.outline') lastMember.outline = true;
          else if (
            meta.id === 'com.android.tools.r8.outlineCallsite' &&
            meta.positions &&
            typeof meta.positions === 'object'
          ) {
            const positions = new Map<number, number>();
            for (const [k, v] of Object.entries(meta.positions as Record<string, unknown>)) {
              if (/^\d+$/.test(k) && typeof v === 'number') positions.set(Number(k), v);
            }
            lastMember.outlineCallsite = positions;
          } else if (meta.id === 'com.android.tools.r8.rewriteFrame') {
            const rule = rewriteFrameRule(meta);
            if (rule) lastMember.rewriteFrames.push(rule);
            else problems.push({ line: n + 1, text: raw, reason: 'rewriteFrame with an unknown condition or action' });
          }
        } else if (current) {
          current.metadata.push(meta);
          if (meta.id === 'sourceFile' && typeof meta.fileName === 'string') current.sourceFile = meta.fileName;
          else if (meta.id === 'com.android.tools.r8.synthesized') current.synthesized = true;
        }
        continue;
      }
      const h = HEADER_LINE.exec(line);
      if (h && current === null) {
        const value = h[2]!.trim();
        if (h[1] === 'compiler') header.compiler = value;
        else if (h[1] === 'compiler_version') header.compilerVersion = value;
        else if (h[1] === 'min_api') header.minApi = value;
        else if (h[1] === 'pg_map_id') header.pgMapId = value;
        else if (h[1] === 'pg_map_hash') header.pgMapHash = value;
      }
      continue;
    }
    const indented = raw.startsWith(' ') || raw.startsWith('\t');
    if (!indented) {
      const c = CLASS_LINE.exec(line);
      if (!c) {
        problems.push({ line: n + 1, text: raw, reason: 'expected `original.Class -> obfuscated.Class:`' });
        current = null;
        lastMember = null;
        continue;
      }
      current = {
        originalName: c[1]!,
        obfuscatedName: c[2]!,
        sourceFile: null,
        synthesized: false,
        methods: new Map(),
        fields: new Map(),
        metadata: [],
      };
      classes.push(current);
      lastMember = null;
      continue;
    }
    if (!current) {
      problems.push({ line: n + 1, text: raw, reason: 'member line outside any class' });
      continue;
    }
    const m = METHOD_LINE.exec(line);
    if (m) {
      const qualified = m[4]!;
      const dot = qualified.lastIndexOf('.');
      const method: MutableMethod = {
        obfuscatedName: m[8]!,
        obfuscatedStart: m[1] === undefined ? null : Number(m[1]),
        obfuscatedEnd: m[2] === undefined ? null : Number(m[2]),
        originalClass: dot === -1 ? null : qualified.slice(0, dot),
        originalName: dot === -1 ? qualified : qualified.slice(dot + 1),
        returnType: m[3]!,
        parameters: m[5]!.replace(/\s+/g, ''),
        originalStart: m[6] === undefined ? null : Number(m[6]),
        originalEnd: m[7] === undefined ? null : Number(m[7]),
        synthesized: false,
        outline: false,
        outlineCallsite: null,
        rewriteFrames: [],
        metadata: [],
      };
      const list = current.methods.get(method.obfuscatedName);
      if (list) list.push(method);
      else current.methods.set(method.obfuscatedName, [method]);
      lastMember = method;
      continue;
    }
    const f = FIELD_LINE.exec(line);
    if (f) {
      const field: FieldMapping = { type: f[1]!, originalName: f[2]!, obfuscatedName: f[3]! };
      const list = current.fields.get(field.obfuscatedName);
      if (list) list.push(field);
      else current.fields.set(field.obfuscatedName, [field]);
      lastMember = null;
      continue;
    }
    problems.push({ line: n + 1, text: raw, reason: 'expected a field or method mapping' });
  }
  return new ProguardMapping(header, classes, problems);
}
