import { EventCatalog } from '../events/event-catalog.js';
import { EventValidationError } from '../events/event-catalog.js';
import { MigrationRefusedError, type MigrationReport, migrateEventLog } from '../events/event-log-migration.js';
import { EventStore } from '../events/event-store.js';
import { EventWitness, readWitness } from '../events/event-witness.js';
import { redactLocation } from '../events/postgres/postgres-location.js';
import { collectEventContributions } from '../kernel/composition-root.js';
import {
  eventLogLocation,
  isPostgresStore,
  normalizeStoreLocation,
  sameStore,
  witnessPath,
} from '../kernel/store-location.js';
import { UsageError } from '../kernel/usage-error.js';
import { runtimeOptions, withContainer, writeOut } from './cli-support.js';
import type { CommandInput } from './command-spec.js';
import type { eventsMigrateFlags } from './command-specs.js';

const shown = (location: string): string => (isPostgresStore(location) ? redactLocation(location) : location);

/**
 * `droidwright events migrate --to/--from LOCATION`: copies the log between stores (see event-log-migration.ts),
 * the side not given being the current store. Exit 1 when the copy is refused or a side does not verify.
 */
export async function runEventsMigrate({ values }: CommandInput<typeof eventsMigrateFlags>): Promise<number> {
  if (values.to === undefined && values.from === undefined) {
    throw new UsageError('say where the log goes (--to LOCATION) or where it comes from (--from LOCATION).');
  }
  const options = runtimeOptions();
  const current = eventLogLocation(options);
  const from = values.from === undefined ? current : normalizeStoreLocation(values.from, '--from');
  const to = values.to === undefined ? current : normalizeStoreLocation(values.to, '--to');
  if (sameStore(from, to)) {
    throw new UsageError(
      `--from and --to are the same log (${shown(from)}); name another store${values.to === undefined || values.from === undefined ? ' (the side not given is the current store)' : ''}.`,
    );
  }
  return withContainer(options, async (container) => {
    // Both sides get every event type, read model and side table this droidwright knows, as the current store does.
    const { events, projections, tables } = collectEventContributions(container);
    const catalog = new EventCatalog(events);
    // Read-only: the source is not migrated to a newer schema or written in any way by being copied.
    const source = EventStore.open({ path: from, catalog, projections, tables, readonly: true });
    let destination: EventStore | undefined;
    try {
      destination = EventStore.open({ path: to, catalog, projections, tables });
      const anchors = readWitness(witnessPath(options.home, from)).anchors;
      const progress = process.stderr.isTTY && !values.json;
      let report: MigrationReport;
      try {
        report = migrateEventLog(source, destination, {
          sourceAnchors: anchors,
          ...(progress
            ? { onProgress: (copied, total) => process.stderr.write(`\rcopied ${copied} of ${total} events`) }
            : {}),
        });
      } catch (error) {
        if (progress) process.stderr.write('\n');
        if (error instanceof MigrationRefusedError || error instanceof EventValidationError) {
          const reason =
            error instanceof EventValidationError
              ? `the destination changed during the copy (${error.message}); run the command again to resume`
              : error.message;
          if (values.json)
            await writeOut(`${JSON.stringify({ ok: false, reason, from: source.path, to: destination.path })}\n`);
          process.stderr.write(`droidwright: not migrated: ${reason}\n`);
          return 1;
        }
        throw error;
      }
      if (progress && report.copied > 0) process.stderr.write('\n');
      if (report.copied > 0) {
        // This machine wrote those events into the destination: its witness of that log starts at their head.
        const witness = new EventWitness(witnessPath(options.home, to));
        witness.note(report.to.head);
        witness.close();
      }
      if (values.json) await writeOut(`${JSON.stringify(report)}\n`);
      else await writeOut(renderReport(report, sameStore(to, current) ? undefined : to));
      if (!report.ok) process.stderr.write(`droidwright: the copy does NOT verify: ${report.reason}.\n`);
      return report.ok ? 0 : 1;
    } finally {
      destination?.close();
      source.close();
    }
  });
}

function side(label: string, s: MigrationReport['from']): string {
  const verified = s.verify.ok ? 'verifies' : `does NOT verify: ${s.verify.reason ?? 'hash mismatch'}`;
  const head = s.head.seq === 0 ? 'empty' : `head seq ${s.head.seq} ${s.head.hash.slice(0, 16)}…`;
  return `  ${label.padEnd(5)} ${s.location} (${s.kind}): ${head}, ${verified}`;
}

/** `to` is given when the destination is not the current store: then the report says how to switch to it. */
function renderReport(report: MigrationReport, to: string | undefined): string {
  const lines: string[] = [];
  const from = report.from.head.seq;
  if (report.copied > 0) {
    lines.push(
      `Copied ${report.copied} event${report.copied === 1 ? '' : 's'} (seq ${report.resumedAfter + 1}..${from})${report.resumedAfter > 0 ? `, resuming after seq ${report.resumedAfter}, which the destination already held` : ''}.`,
    );
  } else if (report.destinationAhead > 0) {
    lines.push(
      `Nothing to copy: the destination already holds the whole source and ${report.destinationAhead} later event(s).`,
    );
  } else
    lines.push(
      from === 0 ? 'Nothing to copy: the source is empty.' : 'Nothing to copy: the destination is up to date.',
    );
  lines.push(side('from', report.from), side('to', report.to));
  if (report.ok && report.copied > 0 && to !== undefined) {
    // The password stays where it was (PGPASSWORD, ~/.pgpass): the line to use the copy never carries it.
    lines.push(`To use it: --store ${shown(to)} (or DROIDWRIGHT_STORE=${shown(to)}) on every droidwright command.`);
  }
  return `${lines.join('\n')}\n`;
}
