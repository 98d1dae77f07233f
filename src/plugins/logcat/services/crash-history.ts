import { inject, injectable } from 'inversify';
import type { z } from 'zod';
import type { StoreReader } from '../../../events/event-definition.js';
import { EventStoreProvider } from '../../../kernel/event-store-provider.js';
import {
  type CrashGroupBuildRow,
  type CrashGroupRow,
  type CrashKind,
  crashGroupId,
  readCrashGroup,
  readCrashGroupBuilds,
  readCrashGroups,
  readNewestCrash,
} from '../crashes.projection.js';
import type { AppCrashed, AppNativeCrashed, AppNotResponding } from '../logcat.events.js';

type Data<E> = E extends { schema: z.ZodType<infer D> } ? D : never;
export type JavaCrashData = Data<typeof AppCrashed>;
export type NativeCrashData = Data<typeof AppNativeCrashed>;
export type AnrData = Data<typeof AppNotResponding>;

/** One recorded crash event, read back from the log. */
export type CrashRecord =
  | {
      readonly seq: number;
      readonly at: number;
      readonly groupId: string;
      readonly kind: 'java';
      readonly data: JavaCrashData;
    }
  | {
      readonly seq: number;
      readonly at: number;
      readonly groupId: string;
      readonly kind: 'native';
      readonly data: NativeCrashData;
    }
  | {
      readonly seq: number;
      readonly at: number;
      readonly groupId: string;
      readonly kind: 'anr';
      readonly data: AnrData;
    };

const KINDS: Readonly<Record<string, CrashKind>> = {
  'app.crashed': 'java',
  'app.native_crashed': 'native',
  'app.not_responding': 'anr',
};

/** Reads crash groups from the crashes read model and single crashes from the log itself. */
@injectable()
export class CrashHistory {
  constructor(@inject(EventStoreProvider) private readonly store: EventStoreProvider) {}

  private reader(): StoreReader {
    return this.store();
  }

  groups(filter: { packages: readonly string[] | null; device: string | null; offset: number; limit: number }) {
    return readCrashGroups(this.reader(), filter);
  }

  group(groupId: string): CrashGroupRow | null {
    return readCrashGroup(this.reader(), groupId);
  }

  builds(groupId: string): CrashGroupBuildRow[] {
    return readCrashGroupBuilds(this.reader(), groupId);
  }

  /** The newest crash of a group, or of some packages; null when none was recorded. */
  newest(filter: {
    groupId?: string;
    packages?: readonly string[] | null;
    device?: string | null;
  }): CrashRecord | null {
    const row = readNewestCrash(this.reader(), filter);
    return row ? this.crash(row.seq) : null;
  }

  crash(seq: number): CrashRecord | null {
    const row = this.reader().prepareRead('SELECT seq, at, type, data FROM events WHERE seq = ?').get(seq) as
      | { seq: number; at: number; type: string; data: string }
      | undefined;
    const kind = row ? KINDS[row.type] : undefined;
    if (!row || !kind) return null;
    const data = JSON.parse(row.data) as JavaCrashData & NativeCrashData & AnrData;
    return { seq: row.seq, at: row.at, kind, data, groupId: crashGroupId(data.package, data.signature_hash) };
  }
}
