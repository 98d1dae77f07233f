// Compile-time checks, run by `npm run typecheck` (tsconfig includes test/**): each `@ts-expect-error`
// line must fail to compile, or tsc reports the directive as unused. Jest never runs this file; the
// jest test test/unit/type-tests.test.ts keeps these lines from being deleted silently.
import type { EventAppender } from '../../src/events/event-definition.js';
import type { EventStore } from '../../src/events/event-store.js';
import type { Actor } from '../../src/shared/actor.js';
import { AppStopped } from '../../src/plugins/device-admin/device-admin.events.js';
import { BuildCancelled } from '../../src/plugins/build/build.events.js';

declare const append: EventAppender;
declare const store: EventStore;
declare const actor: Actor;
const meta = { stream: 'device:emulator-5554', device: 'emulator-5554', package: 'com.example.app' };

export function toolAppends(): void {
  append(AppStopped, { device_serial: 'emulator-5554', package: 'com.example.app', was_running: true }, meta);

  // @ts-expect-error misspelled event definition name
  append(AppStoped, { device_serial: 'emulator-5554', package: 'com.example.app', was_running: true }, meta);

  // @ts-expect-error wrong data shape: was_running is a boolean
  append(AppStopped, { device_serial: 'emulator-5554', package: 'com.example.app', was_running: 'yes' }, meta);

  // @ts-expect-error wrong data shape: a required field is missing
  append(AppStopped, { device_serial: 'emulator-5554', package: 'com.example.app' }, meta);

  // @ts-expect-error wrong data shape: a field the event does not declare
  append(AppStopped, { device_serial: 'x', package: 'com.example.app', was_running: true, pid: 1 }, meta);

  // @ts-expect-error the data of another event type
  append(AppStopped, { build_id: 'b1', cancelled_by: 'cli', via: 'cancel_build' }, meta);

  // @ts-expect-error a type string is not a definition
  append('app.stopped', { device_serial: 'x', package: 'com.example.app', was_running: true }, meta);

  // @ts-expect-error every event needs a stream
  append(AppStopped, { device_serial: 'x', package: 'com.example.app', was_running: true }, { device: 'x' });
}

export function storeAppends(): void {
  const cancelled = { build_id: 'b1', cancelled_by: 'cli', via: 'cancel_build' } as const;
  const buildMeta = { stream: 'build:b1', actor };
  store.append(BuildCancelled, cancelled, buildMeta);

  // @ts-expect-error misspelled event definition name
  store.append(BuildCanceled, cancelled, buildMeta);

  // @ts-expect-error wrong data shape: via is one of request, cancel_build, shutdown
  store.append(BuildCancelled, { build_id: 'b1', cancelled_by: 'cli', via: 'agent' }, buildMeta);

  // @ts-expect-error the store's append records no event without an actor
  store.append(BuildCancelled, cancelled, { stream: 'build:b1' });

  // @ts-expect-error the old one-object form is gone: a type string is checked only at run time
  store.append({ type: 'build.cancelled', stream: 'build:b1', actor, data: cancelled });
}
