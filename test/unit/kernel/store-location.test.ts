import { join } from 'node:path';
import {
  eventLogLocation,
  normalizeStoreLocation,
  sameStore,
  storeEnv,
  storeFromEnv,
  witnessPath,
} from '../../../src/kernel/store-location.js';

describe('store location (--store / DROIDWRIGHT_STORE)', () => {
  test('a PostgreSQL URL is kept exactly, TLS options included; a file is made absolute; the default is events.db', () => {
    const url = 'postgresql://ci@db.example.com:6432/droidwright?sslmode=verify-full&sslrootcert=/etc/ssl/team.pem';
    expect(normalizeStoreLocation(url, '--store')).toBe(url);
    expect(normalizeStoreLocation(' logs/team.db ', '--store', '/work')).toBe('/work/logs/team.db');
    expect(eventLogLocation({ home: '/h' })).toBe('/h/events.db');
    expect(eventLogLocation({ home: '/h', store: url })).toBe(url);
    expect(storeFromEnv({})).toBeUndefined();
    expect(storeFromEnv({ DROIDWRIGHT_STORE: '  ' })).toBeUndefined();
    expect(storeFromEnv({ DROIDWRIGHT_STORE: url })).toBe(url);
  });

  test('a bad location is a usage error that never repeats the password', () => {
    const refuse = (value: string) => () => normalizeStoreLocation(value, '--store');
    expect(refuse('')).toThrow('--store is empty');
    expect(refuse('mysql://root:pw@db/x')).toThrow(/postgres:\/\/ or postgresql:\/\/ URL or a SQLite file/);
    for (const bad of ['postgres://alice:s3cret@[db/x', 'postgres://alice:s3cret@db.example.com:5432']) {
      let message = '';
      try {
        normalizeStoreLocation(bad, '--store');
      } catch (error) {
        message = (error as Error).message;
        expect((error as Error).name).toBe('UsageError');
      }
      expect(message).toMatch(/--store (is not a valid PostgreSQL URL|names no database)/);
      expect(message).not.toContain('s3cret');
    }
  });

  test('one witness file per log, named by server and database, never by role, password or options', () => {
    const home = '/h';
    expect(witnessPath(home)).toBe(join(home, 'witness.jsonl'));
    expect(witnessPath(home, join(home, 'events.db'))).toBe(join(home, 'witness.jsonl'));
    const team = witnessPath(home, 'postgres://alice:pw@DB.example.com/droidwright');
    expect(team).toMatch(/^\/h\/witness-[0-9a-f]{12}\.jsonl$/);
    expect(witnessPath(home, 'postgresql://bob@db.example.com:5432/droidwright?sslmode=require')).toBe(team);
    expect(witnessPath(home, 'postgres://alice@db.example.com/other')).not.toBe(team);
    expect(witnessPath(home, 'postgres://alice@db.example.com:6432/droidwright')).not.toBe(team);
    expect(witnessPath(home, '/elsewhere/events.db')).not.toBe(join(home, 'witness.jsonl'));
    expect(sameStore('postgres://a@db/x?sslmode=disable', 'postgresql://b:pw@DB:5432/x')).toBe(true);
    expect(sameStore('/h/events.db', '/h/other.db')).toBe(false);
  });

  test('a worker gets its parent store, or none when the parent used the default', () => {
    const inherited = { PATH: '/bin', DROIDWRIGHT_STORE: 'postgres://someone@else/db' };
    expect(storeEnv(inherited, { home: '/h', store: 'postgres://me@db/log' })).toEqual({
      PATH: '/bin',
      DROIDWRIGHT_HOME: '/h',
      DROIDWRIGHT_STORE: 'postgres://me@db/log',
    });
    expect(storeEnv(inherited, { home: '/h' })).toEqual({ PATH: '/bin', DROIDWRIGHT_HOME: '/h' });
  });
});
