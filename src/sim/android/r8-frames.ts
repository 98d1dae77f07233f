import { z } from 'zod';
import { loadApkReader } from '../../android/adbkit-loader.js';

/** Where the stand-in Gradle puts a minified build's renamed frames (examples/notes-app/gradle/stand-in-gradle.mjs). */
export const R8_FRAMES_ASSET = 'assets/stand-in-r8-frames.json';

const R8FramesSchema = z.object({
  source_file: z.string().regex(/^r8-map-id-[0-9a-zA-Z]+$/),
  methods: z
    .array(
      z.object({
        class: z.string().min(1).max(512),
        method: z.string().min(1).max(512),
        first: z.number().int().nonnegative(),
        last: z.number().int().nonnegative(),
        obfuscated_class: z.string().min(1).max(512),
        obfuscated_method: z.string().min(1).max(512),
        obfuscated_first: z.number().int().nonnegative(),
      }),
    )
    .max(10_000),
});

/** What a minified APK's code says about itself: renamed classes and methods, minified lines, the source marker. */
export type R8Frames = z.infer<typeof R8FramesSchema>;

/** The frame table of a minified APK, or null for an APK that carries none (not minified, or not from the stand-in). */
export async function readR8Frames(apkFile: string): Promise<R8Frames | null> {
  try {
    const ApkReader = await loadApkReader();
    const reader = await ApkReader.open(apkFile);
    const parsed = R8FramesSchema.safeParse(JSON.parse((await reader.readContent(R8_FRAMES_ASSET)).toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const FRAME = /^(.+)\.([^.(]+)\(([^:)]*)(?::(\d+))?\)$/;

/**
 * A source frame (`com.example.Foo.bar(Foo.kt:12)`) as the minified code prints it (`a.a.b(r8-map-id-…:3)`);
 * frames of code the table does not cover (the framework's) are printed unchanged, as R8 leaves library code alone.
 */
export function minifiedFrame(frame: string, table: R8Frames): string {
  const m = FRAME.exec(frame);
  if (!m) return frame;
  const [, cls, method, , lineText] = m;
  const line = lineText === undefined ? null : Number(lineText);
  const hit = table.methods.find(
    (e) => e.class === cls && e.method === method && (line === null || (line >= e.first && line <= e.last)),
  );
  if (!hit) return frame;
  const minifiedLine = line === null ? hit.obfuscated_first : hit.obfuscated_first + (line - hit.first);
  return `${hit.obfuscated_class}.${hit.obfuscated_method}(${table.source_file}:${minifiedLine})`;
}
