import {
  startSimulatedDevice,
  type RunningSimulatedDevice,
  type SimulatedDeviceOptions,
} from '../../src/sim/start-simulated-device.js';
import type { TestAdbServer } from './adb-server.js';

/** Starts a simulated device on a free TCP port, connects the test's adb server to it and waits until it is online. */
export async function startSimOnAdb(
  adb: TestAdbServer,
  options: SimulatedDeviceOptions = {},
): Promise<RunningSimulatedDevice> {
  const device = await startSimulatedDevice({ port: 0, ...options });
  try {
    await adb.connect(device.serial);
  } catch (error) {
    await device.stop();
    throw error;
  }
  return device;
}
