import type { ContainerModule } from 'inversify';
import { androidModule } from '../android/android.module.js';
import { buildModule } from './build/build.module.js';
import { coreModule } from './core/core.module.js';
import { deviceAdminModule } from './device-admin/device-admin.module.js';
import { logcatModule } from './logcat/logcat.module.js';
import { uiModule } from './ui/ui.module.js';

/** Every plugin's ContainerModule, loaded by the composition root. One line per plugin. */
export const pluginModules: readonly ContainerModule[] = [
  coreModule,
  buildModule,
  androidModule,
  deviceAdminModule,
  logcatModule,
  uiModule,
];
