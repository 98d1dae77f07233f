import type { SimulatedAndroid } from '../simulated-android.js';
import type { ServiceHandler, ServiceRouter } from './adb-connection.js';
import { parseShellService, runShellService } from './shell-service.js';
import { runSyncService } from './sync-service.js';

/**
 * Maps an OPEN's service string to what runs it. Services a real device offers but the simulation
 * has no use for (`reverse:`, `framebuffer:`, `jdwp`, `reboot:`…) are refused, which clients report
 * as the device closing the stream, just as an old device without the feature would.
 */
export function createServiceRouter(android: SimulatedAndroid): ServiceRouter {
  return (service: string): ServiceHandler | null => {
    if (service === 'sync:') return (stream) => runSyncService(stream, android.fs);
    const shell = parseShellService(service);
    if (shell) return (stream) => runShellService(stream, android, shell);
    return null;
  };
}
