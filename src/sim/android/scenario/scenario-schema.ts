/**
 * Scenario files describe the apps a simulated device runs, as data: their manifest facts, their screens as view
 * trees, and what happens on taps, typed text, keys, time and back presses. See scenarios/README.md.
 *
 * Shape (JSON):
 * {
 *   "description": "…",
 *   "design": { "width": 1080, "height": 2400 },         // coordinate space of every `bounds`; scaled to the display
 *   "apps": [{
 *     "package": "com.example.notes", "label": "Notes", "versionCode": 1, "versionName": "1.0",
 *     "minSdk": 24, "targetSdk": 34, "debuggable": true,
 *     "permissions": ["android.permission.CAMERA"],       // uses-permission; dangerous ones become grantable
 *     "activities": [{ "name": ".LoginActivity", "screen": "login", "launcher": true,
 *                      "intentFilters"?: [IntentFilter] }],    // what implicit intents (am start -a/-d) reach it
 *     "onLaunch": Action,                                // when a cold start brings the process up
 *     "screens": { "login": Screen, … }
 *   }]
 * }
 * Screen: { "activity": ".LoginActivity", "root": Node, "onEnter"?: Action, "onBack"?: Action,
 *           "dump"?: "screens/login.xml" (a captured UI Automator dump shown as it was captured, instead of root;
 *                    relative to the scenario file),
 *           "after"?: { "ms": 800, "then": Action } }    // a loading screen that moves on by itself
 * Node:   { "class": "android.widget.Button", "id"?: "sign_in" (→ <package>:id/sign_in), "text"?, "desc"?, "hint"?,
 *           "bounds": [left, top, right, bottom], "clickable"?, "longClickable"?, "enabled"? (default true),
 *           "focusable"?, "scrollable"?, "password"?, "checkable"?, "checked"?, "selected"?, "editable"?
 *           (default: class name contains EditText), "children"?: Node[], "onTap"?: Action, "onText"?: Action,
 *           "list"?: { "itemHeight": 200, "items": [{ "title", "subtitle"?, "onTap"?: Action }],
 *                      "itemClass"?, "titleId"?, "subtitleId"? } }  // rows laid out inside bounds; swipes scroll
 * IntentFilter: { "actions": ["android.intent.action.VIEW"], "categories"?: ["android.intent.category.DEFAULT", …],
 *                 "data"?: [{ "scheme"?, "host"? ("*.x.com" allowed), "port"?, "path"?, "pathPrefix"?, "mimeType"? }] }
 *   Matched as Android's IntentFilter does: the <data> entries of one filter merge (every scheme with every host
 *   and path), implicit activity starts need android.intent.category.DEFAULT, and an intent without data only
 *   matches a filter without data. Put unrelated links in separate filters.
 * Action: all keys optional, applied in this order:
 *   "require": { "<field id>": "<regex>" }, "otherwise": Action   // guard on typed field values
 *   "log": [{ "level": "D", "tag": "Notes", "message": "Signed in as {field:email}", "buffer"?: "main" }]
 *   "setText": { "<node id>": "text" }, "toggle": true (flips the tapped checkable node),
 *   "crash": { "kind": "java", "exception"?, "message"?, "frames"? } | { "kind": "native", "signal"?: "SIGSEGV",
 *             "library"?, "symbol"? } | { "kind": "anr", "reason"? },
 *   "goto": "<screen>", "back": true, "finish": true
 */
import { z } from 'zod';

export const LogLineSchema = z.object({
  level: z.enum(['V', 'D', 'I', 'W', 'E', 'F']),
  tag: z.string().min(1).max(64),
  message: z.string().max(4000),
  buffer: z.enum(['main', 'system', 'crash', 'events', 'radio']).optional(),
});
export type LogLine = z.infer<typeof LogLineSchema>;

export const CrashSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('java'),
    exception: z.string().optional(),
    message: z.string().optional(),
    frames: z.array(z.string()).optional(),
    causedBy: z
      .object({ exception: z.string(), message: z.string().optional(), frames: z.array(z.string()).optional() })
      .optional(),
  }),
  z.object({
    kind: z.literal('native'),
    signal: z.enum(['SIGSEGV', 'SIGABRT', 'SIGBUS', 'SIGILL', 'SIGFPE']).optional(),
    library: z.string().optional(),
    symbol: z.string().optional(),
    thread: z.string().optional(),
  }),
  z.object({ kind: z.literal('anr'), reason: z.string().optional() }),
]);
export type CrashSpec = z.infer<typeof CrashSchema>;

export interface Action {
  require?: Record<string, string>;
  otherwise?: Action;
  log?: LogLine[];
  setText?: Record<string, string>;
  toggle?: boolean;
  crash?: CrashSpec;
  goto?: string;
  back?: boolean;
  finish?: boolean;
}

export const ActionSchema: z.ZodType<Action> = z.lazy(() =>
  z
    .object({
      require: z.record(z.string(), z.string()).optional(),
      otherwise: ActionSchema.optional(),
      log: z.array(LogLineSchema).optional(),
      setText: z.record(z.string(), z.string()).optional(),
      toggle: z.boolean().optional(),
      crash: CrashSchema.optional(),
      goto: z.string().optional(),
      back: z.boolean().optional(),
      finish: z.boolean().optional(),
    })
    .strict(),
);

export const IntentDataSchema = z
  .object({
    scheme: z.string().min(1).optional(),
    host: z.string().min(1).optional(),
    port: z.number().int().min(1).max(65535).optional(),
    path: z.string().startsWith('/').optional(),
    pathPrefix: z.string().startsWith('/').optional(),
    mimeType: z
      .string()
      .regex(/^[^/\s]+\/[^/\s]+$/, 'a MIME type like image/* or text/plain')
      .optional(),
  })
  .strict();
export type IntentDataSpec = z.infer<typeof IntentDataSchema>;

export const IntentFilterSchema = z
  .object({
    actions: z.array(z.string().min(1)).min(1),
    categories: z.array(z.string().min(1)).default([]),
    data: z.array(IntentDataSchema).default([]),
  })
  .strict();
export type IntentFilterSpec = z.infer<typeof IntentFilterSchema>;

const Bounds = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);

export const ListItemSchema = z
  .object({ title: z.string(), subtitle: z.string().optional(), onTap: ActionSchema.optional() })
  .strict();

export const ListSchema = z
  .object({
    itemHeight: z.number().int().positive(),
    items: z.array(ListItemSchema),
    itemClass: z.string().optional(),
    titleId: z.string().optional(),
    subtitleId: z.string().optional(),
  })
  .strict();

export interface NodeSpec {
  class: string;
  id?: string;
  text?: string;
  desc?: string;
  hint?: string;
  bounds: [number, number, number, number];
  clickable?: boolean;
  longClickable?: boolean;
  enabled?: boolean;
  focusable?: boolean;
  scrollable?: boolean;
  password?: boolean;
  checkable?: boolean;
  checked?: boolean;
  selected?: boolean;
  editable?: boolean;
  children?: NodeSpec[];
  onTap?: Action;
  onText?: Action;
  list?: z.infer<typeof ListSchema>;
}

export const NodeSchema: z.ZodType<NodeSpec> = z.lazy(() =>
  z
    .object({
      class: z.string().min(1),
      id: z.string().optional(),
      text: z.string().optional(),
      desc: z.string().optional(),
      hint: z.string().optional(),
      bounds: Bounds,
      clickable: z.boolean().optional(),
      longClickable: z.boolean().optional(),
      enabled: z.boolean().optional(),
      focusable: z.boolean().optional(),
      scrollable: z.boolean().optional(),
      password: z.boolean().optional(),
      checkable: z.boolean().optional(),
      checked: z.boolean().optional(),
      selected: z.boolean().optional(),
      editable: z.boolean().optional(),
      children: z.array(NodeSchema).optional(),
      onTap: ActionSchema.optional(),
      onText: ActionSchema.optional(),
      list: ListSchema.optional(),
    })
    .strict(),
);

export const ScreenSchema = z
  .object({
    activity: z.string().min(1),
    root: NodeSchema,
    /** A UI Automator dump file to show instead of drawing `root` (the loader fills `root` in for it). */
    dump: z.string().min(1).optional(),
    onEnter: ActionSchema.optional(),
    onBack: ActionSchema.optional(),
    // biome-ignore lint/suspicious/noThenProperty: `then` is the scenario format's word for the follow-up action
    after: z.object({ ms: z.number().int().nonnegative(), then: ActionSchema }).strict().optional(),
  })
  .strict();
export type ScreenSpec = z.infer<typeof ScreenSchema>;

const PackageName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, 'a Java package name like com.example.app');

export const AppSchema = z
  .object({
    package: PackageName,
    label: z.string().min(1),
    versionCode: z.number().int().nonnegative().default(1),
    versionName: z.string().default('1.0'),
    minSdk: z.number().int().positive().default(24),
    targetSdk: z.number().int().positive().default(34),
    debuggable: z.boolean().default(true),
    permissions: z.array(z.string()).default([]),
    activities: z
      .array(
        z
          .object({
            name: z.string().min(1),
            screen: z.string().min(1),
            launcher: z.boolean().optional(),
            intentFilters: z.array(IntentFilterSchema).optional(),
          })
          .strict(),
      )
      .min(1),
    onLaunch: ActionSchema.optional(),
    screens: z.record(z.string(), ScreenSchema),
  })
  .strict()
  .superRefine((app, ctx) => {
    for (const a of app.activities) {
      if (!app.screens[a.screen])
        ctx.addIssue({ code: 'custom', message: `activity ${a.name} starts on unknown screen "${a.screen}"` });
    }
    const gotos: string[] = [];
    const collect = (action: Action | undefined) => {
      if (!action) return;
      if (action.goto) gotos.push(action.goto);
      collect(action.otherwise);
    };
    const walk = (node: NodeSpec) => {
      collect(node.onTap);
      collect(node.onText);
      for (const item of node.list?.items ?? []) collect(item.onTap);
      node.children?.forEach(walk);
    };
    for (const screen of Object.values(app.screens)) {
      collect(screen.onEnter);
      collect(screen.onBack);
      collect(screen.after?.then);
      walk(screen.root);
    }
    collect(app.onLaunch);
    for (const g of gotos)
      if (!app.screens[g]) ctx.addIssue({ code: 'custom', message: `goto to unknown screen "${g}"` });
  });
export type AppSpec = z.infer<typeof AppSchema>;

export const ScenarioSchema = z
  .object({
    description: z.string().optional(),
    design: z
      .object({ width: z.number().int().positive(), height: z.number().int().positive() })
      .strict()
      .default({ width: 1080, height: 2400 }),
    apps: z.array(AppSchema),
  })
  .strict();
export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
