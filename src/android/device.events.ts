import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

const DeviceDetails = {
  kind: z.enum(['emulator', 'physical', 'wireless']),
  model: z.string().nullable(),
  manufacturer: z.string().nullable(),
  api_level: z.number().int().nullable(),
  abi: z.string().nullable(),
  avd_name: z.string().nullable(),
};

/** Who noticed the change (the tool call that listed devices); the event's actor is the system. */
const ObservedBy = { observed_by: z.string().max(200).optional() };

export const DeviceConnected = defineEvent({
  type: 'device.connected',
  version: 1,
  description: 'adb listed a device that droidwright had not seen connected before.',
  schema: z.object({ serial: z.string().min(1), state: z.string(), ...DeviceDetails, ...ObservedBy }),
});

export const DeviceDisconnected = defineEvent({
  type: 'device.disconnected',
  version: 1,
  description: 'A device droidwright had seen connected is no longer listed by adb.',
  schema: z.object({ serial: z.string().min(1), last_state: z.string(), ...ObservedBy }),
});

export const DeviceStateChanged = defineEvent({
  type: 'device.state_changed',
  version: 1,
  description: 'A connected device changed adb state (offline, unauthorized, device…).',
  schema: z.object({ serial: z.string().min(1), from: z.string(), to: z.string(), ...DeviceDetails, ...ObservedBy }),
});

export const deviceEvents = [DeviceConnected, DeviceDisconnected, DeviceStateChanged];

export type DeviceConnectedData = z.infer<typeof DeviceConnected.schema>;
export type DeviceDisconnectedData = z.infer<typeof DeviceDisconnected.schema>;
export type DeviceStateChangedData = z.infer<typeof DeviceStateChanged.schema>;
