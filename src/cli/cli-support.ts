import type { Container } from 'inversify';
import { resolveHome } from '../kernel/paths.js';
import type { RuntimeOptions } from '../kernel/runtime-options.js';
import { storeFromEnv } from '../kernel/store-location.js';

/** This process's options: the data directory and the store from the environment (`--home` and `--store` set it). */
export function runtimeOptions(overrides: Partial<RuntimeOptions> = {}): RuntimeOptions {
  const store = storeFromEnv(process.env);
  return {
    home: resolveHome(process.env),
    ...(store ? { store } : {}),
    cwd: process.cwd(),
    readOnly: false,
    env: process.env,
    ...overrides,
  };
}

/**
 * Runs `body` with a container over every plugin, and closes the database afterwards. The container and the
 * plugins are imported here, not at the top: `droidwright mcp` imports this module and must start without them.
 */
export async function withContainer<T>(
  options: RuntimeOptions,
  body: (container: Container) => Promise<T> | T,
): Promise<T> {
  const [{ createContainer, disposeContainer }, { pluginModules }] = await Promise.all([
    import('../kernel/composition-root.js'),
    import('../plugins/index.js'),
  ]);
  const container = createContainer(options, pluginModules);
  try {
    return await body(container);
  } finally {
    disposeContainer(container);
  }
}

/** Writes to stdout and waits until it is flushed, so a piped consumer sees everything before exit. */
export function writeOut(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}
