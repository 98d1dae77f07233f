import { CATEGORY_DEFAULT } from './intent-resolver.js';
import type { AppSpec, NodeSpec, ScreenSpec } from './scenario/scenario-schema.js';

/*
 * The screens of the platform apps that implicit intents reach: Settings (its home, Network & internet and App
 * info) and the framework's app chooser. They are scenario-style app specs so the same renderer, uiautomator dump,
 * screencap and input code serve them; bounds are laid out for 1080×2400 and scaled to the scenario's design.
 */

export const SETTINGS_PACKAGE = 'com.android.settings';
export const SETTINGS_HOME_ACTIVITY = 'com.android.settings.Settings';
export const APP_DETAILS_ACTIVITY = 'com.android.settings.applications.InstalledAppDetails';
export const NETWORK_ACTIVITY = 'com.android.settings.Settings$NetworkDashboardActivity';
export const ACTION_APPLICATION_DETAILS = 'android.settings.APPLICATION_DETAILS_SETTINGS';
/** The chooser lives in the framework package and runs inside system_server. */
export const FRAMEWORK_PACKAGE = 'android';
export const RESOLVER_ACTIVITY = 'com.android.internal.app.ResolverActivity';

/** App info fields filled per launch from the package named in the intent's `package:` data. */
export const APP_INFO_TITLE_ID = 'id:entity_header_title';
export const APP_INFO_VERSION_ID = 'id:app_version';

type Design = { width: number; height: number };

function scaler(design: Design) {
  const rect = (r: readonly number[]): [number, number, number, number] => [
    Math.round((r[0] * design.width) / 1080),
    Math.round((r[1] * design.height) / 2400),
    Math.round((r[2] * design.width) / 1080),
    Math.round((r[3] * design.height) / 2400),
  ];
  const y = (v: number) => Math.max(1, Math.round((v * design.height) / 2400));
  return { rect, y };
}

function text(id: string | undefined, value: string, bounds: number[], s: ReturnType<typeof scaler>): NodeSpec {
  return { class: 'android.widget.TextView', ...(id ? { id } : {}), text: value, bounds: s.rect(bounds) };
}

/** A Settings page: a collapsing-toolbar title over a preference list. */
function page(
  title: string,
  rows: { title: string; summary?: string; goto?: string }[],
  s: ReturnType<typeof scaler>,
  activity: string,
  listTop = 420,
): ScreenSpec {
  return {
    activity,
    root: {
      class: 'android.widget.LinearLayout',
      bounds: s.rect([0, 84, 1080, 2400]),
      children: [
        text('collapsing_toolbar', title, [48, 180, 1032, 360], s),
        {
          class: 'androidx.recyclerview.widget.RecyclerView',
          id: 'recycler_view',
          bounds: s.rect([0, listTop, 1080, 2400]),
          list: {
            itemHeight: s.y(200),
            titleId: 'android:id/title',
            subtitleId: 'android:id/summary',
            items: rows.map((r) => ({
              title: r.title,
              ...(r.summary ? { subtitle: r.summary } : {}),
              ...(r.goto ? { onTap: { goto: r.goto } } : {}),
            })),
          },
        },
      ],
    },
  };
}

/** Settings as the intents that tools send see it: its home, Network & internet, and App info. */
export function settingsAppSpec(design: Design): AppSpec {
  const s = scaler(design);
  const appInfo: ScreenSpec = {
    activity: APP_DETAILS_ACTIVITY,
    root: {
      class: 'android.widget.LinearLayout',
      bounds: s.rect([0, 84, 1080, 2400]),
      children: [
        text('collapsing_toolbar', 'App info', [48, 180, 1032, 360], s),
        {
          class: 'android.widget.ImageView',
          id: 'entity_header_icon',
          desc: 'App icon',
          bounds: s.rect([460, 400, 620, 560]),
        },
        text('entity_header_title', '', [64, 580, 1016, 660], s),
        {
          class: 'android.widget.Button',
          id: 'button1',
          text: 'Uninstall',
          clickable: true,
          bounds: s.rect([64, 720, 520, 860]),
        },
        {
          class: 'android.widget.Button',
          id: 'button2',
          text: 'Force stop',
          clickable: true,
          bounds: s.rect([560, 720, 1016, 860]),
        },
        {
          class: 'androidx.recyclerview.widget.RecyclerView',
          id: 'recycler_view',
          bounds: s.rect([0, 900, 1080, 2240]),
          list: {
            itemHeight: s.y(190),
            titleId: 'android:id/title',
            subtitleId: 'android:id/summary',
            items: [
              'Notifications',
              'Permissions',
              'Storage & cache',
              'Mobile data & Wi‑Fi',
              'Screen time',
              'App battery usage',
              'Open by default',
            ].map((title) => ({ title })),
          },
        },
        text('app_version', '', [64, 2260, 1016, 2340], s),
      ],
    },
  };
  return {
    package: SETTINGS_PACKAGE,
    label: 'Settings',
    versionCode: 34,
    versionName: '14',
    minSdk: 34,
    targetSdk: 34,
    debuggable: false,
    permissions: [],
    activities: [
      {
        name: SETTINGS_HOME_ACTIVITY,
        screen: 'homepage',
        launcher: true,
        intentFilters: [{ actions: ['android.settings.SETTINGS'], categories: [CATEGORY_DEFAULT], data: [] }],
      },
      {
        name: NETWORK_ACTIVITY,
        screen: 'network',
        intentFilters: [
          {
            actions: ['android.settings.WIRELESS_SETTINGS', 'android.settings.AIRPLANE_MODE_SETTINGS'],
            categories: [CATEGORY_DEFAULT],
            data: [],
          },
        ],
      },
      {
        name: APP_DETAILS_ACTIVITY,
        screen: 'app_info',
        intentFilters: [
          { actions: [ACTION_APPLICATION_DETAILS], categories: [CATEGORY_DEFAULT], data: [{ scheme: 'package' }] },
        ],
      },
    ],
    screens: {
      homepage: page(
        'Settings',
        [
          { title: 'Network & internet', summary: 'Mobile, Wi‑Fi, hotspot', goto: 'network' },
          { title: 'Connected devices', summary: 'Bluetooth, pairing' },
          { title: 'Apps', summary: 'Recent apps, default apps' },
          { title: 'Notifications', summary: 'Notification history, conversations' },
          { title: 'Battery', summary: '100%' },
          { title: 'Storage', summary: '21% used' },
          { title: 'Sound & vibration', summary: 'Volume, haptics, Do Not Disturb' },
          { title: 'Display', summary: 'Dark theme, font size, brightness' },
          { title: 'Security & privacy', summary: 'App security, device lock, permissions' },
          { title: 'System', summary: 'Languages, gestures, time, backup' },
        ],
        s,
        SETTINGS_HOME_ACTIVITY,
      ),
      network: page(
        'Network & internet',
        [
          { title: 'Internet', summary: 'AndroidWifi' },
          { title: 'Calls & SMS', summary: 'T-Mobile' },
          { title: 'SIMs', summary: 'T-Mobile' },
          { title: 'Airplane mode' },
          { title: 'Hotspot & tethering', summary: 'Off' },
          { title: 'Data Saver', summary: 'Off' },
        ],
        s,
        NETWORK_ACTIVITY,
      ),
      app_info: appInfo,
    },
  };
}

/** The framework's "Open with" sheet for an intent several activities handle; rows are the candidates' labels. */
export function resolverAppSpec(design: Design, candidateLabels: readonly string[]): AppSpec {
  const s = scaler(design);
  return {
    package: FRAMEWORK_PACKAGE,
    label: 'Android System',
    versionCode: 34,
    versionName: '14',
    minSdk: 34,
    targetSdk: 34,
    debuggable: false,
    permissions: [],
    activities: [{ name: RESOLVER_ACTIVITY, screen: 'resolver' }],
    screens: {
      resolver: {
        activity: RESOLVER_ACTIVITY,
        root: {
          class: 'android.widget.LinearLayout',
          id: 'android:id/contentPanel',
          bounds: s.rect([0, 1320, 1080, 2400]),
          children: [
            text('android:id/title', 'Open with', [64, 1360, 1016, 1460], s),
            {
              class: 'android.widget.ListView',
              id: 'android:id/resolver_list',
              bounds: s.rect([0, 1480, 1080, 2200]),
              list: {
                itemHeight: s.y(160),
                titleId: 'android:id/text1',
                items: candidateLabels.map((title) => ({ title })),
              },
            },
            // Disabled until a row is chosen, as on the device.
            {
              class: 'android.widget.Button',
              id: 'android:id/button_once',
              text: 'Just once',
              enabled: false,
              bounds: s.rect([500, 2240, 760, 2360]),
            },
            {
              class: 'android.widget.Button',
              id: 'android:id/button_always',
              text: 'Always',
              enabled: false,
              bounds: s.rect([780, 2240, 1016, 2360]),
            },
          ],
        },
      },
    },
  };
}
