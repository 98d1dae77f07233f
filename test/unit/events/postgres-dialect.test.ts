import { describe, expect, test } from '@jest/globals';
import { bindParameters } from '../../../src/events/postgres/pg-sql-connection.js';
import { toPostgresDdl, tokenize, translateToPostgres } from '../../../src/events/postgres/postgres-dialect.js';

const pg = (sql: string) => translateToPostgres(sql).sql;

describe('tokenizer', () => {
  test('gives the input back unchanged, quotes and comments as single tokens', () => {
    const sql = `SELECT 'it''s ? @x', "a""b", x::json -- ? here\n /* @y */ FROM t WHERE a >= 1.5e-3`;
    const tokens = tokenize(sql);
    expect(tokens.map((t) => t.text).join('')).toBe(sql);
    expect(tokens.filter((t) => t.kind === 'param')).toEqual([]);
    expect(tokens.find((t) => t.kind === 'string')?.text).toBe(`'it''s ? @x'`);
  });

  test('refuses an unterminated quote', () => {
    expect(() => tokenize(`SELECT 'abc`)).toThrow(/Unterminated/);
  });
});

describe('parameters', () => {
  test('? becomes $1, $2 … in order; those in strings and comments stay', () => {
    const t = translateToPostgres(`SELECT * FROM t WHERE a = ? AND b = '?' /* ? */ AND c IN (?, ?)`);
    expect(t.sql).toBe(`SELECT * FROM t WHERE a = $1 AND b = '?' /* ? */ AND c IN ($2, $3)`);
    expect(t.params).toEqual({ style: 'positional', count: 3 });
  });

  test('@name, :name and $name bind by name, the same name to the same $n', () => {
    const t = translateToPostgres(
      'UPDATE t SET a = @a, b = :b WHERE id = $id AND (CAST(@a AS TEXT) IS NULL OR a = @a)',
    );
    expect(t.sql).toBe('UPDATE t SET a = $1, b = $2 WHERE id = $3 AND (CAST($1 AS TEXT) IS NULL OR a = $1)');
    expect(t.params).toEqual({ style: 'named', names: ['a', 'b', 'id'] });
  });

  test('a PostgreSQL cast is not a :name parameter', () => {
    expect(pg('SELECT x::text FROM t WHERE y = :y')).toBe('SELECT x::text FROM t WHERE y = $1');
  });

  test('a parameter only tested for NULL must be CAST, or PostgreSQL cannot type it', () => {
    expect(() => pg('SELECT * FROM t WHERE (@a IS NULL OR a = @a)')).toThrow(/CAST\(@a AS TEXT\) IS NULL/);
    expect(() => pg('SELECT * FROM t WHERE ? IS NOT NULL')).toThrow(/CAST/);
    expect(pg('SELECT * FROM t WHERE (CAST(@a AS TEXT) IS NULL OR a = @a)')).toBe(
      'SELECT * FROM t WHERE (CAST($1 AS TEXT) IS NULL OR a = $1)',
    );
  });

  test('mixing styles, $1 and parameters in DDL are refused', () => {
    expect(() => pg('SELECT ? , @a')).toThrow(/one style/);
    expect(() => pg('SELECT $1')).toThrow(/\? or @name/);
    expect(() => toPostgresDdl('CREATE TABLE t (a INTEGER DEFAULT ?)')).toThrow(/parameters in DDL/);
  });

  test('arguments are checked as better-sqlite3 checks them', () => {
    const positional = translateToPostgres('SELECT ?, ?');
    expect(bindParameters(positional, [1, 'a'])).toEqual([1, 'a']);
    expect(bindParameters(positional, [[1, null]])).toEqual([1, null]);
    expect(() => bindParameters(positional, [1])).toThrow(RangeError);
    expect(() => bindParameters(positional, [1, 2, 3])).toThrow(RangeError);
    expect(() => bindParameters(positional, [1, true])).toThrow(/can only bind/);
    expect(() => bindParameters(positional, [1, undefined])).toThrow(/can only bind/);
    const named = translateToPostgres('SELECT @a, @b, @a');
    expect(bindParameters(named, [{ b: 2, a: 1, extra: 3 }])).toEqual([1, 2]);
    expect(() => bindParameters(named, [{ a: 1 }])).toThrow(/Missing named parameter "b"/);
    expect(() => bindParameters(named, [1, 2])).toThrow(/pass one object/);
  });
});

describe('statements', () => {
  test('INSERT OR IGNORE becomes ON CONFLICT DO NOTHING, before a RETURNING', () => {
    expect(pg('INSERT OR IGNORE INTO t (a) VALUES (?)')).toBe('INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING');
    expect(pg('insert or ignore into t (a) select a from u returning a;')).toBe(
      'insert into t (a) select a from u ON CONFLICT DO NOTHING returning a;',
    );
    expect(pg('INSERT OR IGNORE INTO t VALUES (1);\nINSERT INTO u VALUES (2)')).toBe(
      'INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING;\nINSERT INTO u VALUES (2)',
    );
  });

  test('INSERT OR REPLACE, REPLACE INTO and other conflict clauses are refused with the portable form', () => {
    expect(() => pg('INSERT OR REPLACE INTO t VALUES (1)')).toThrow(/ON CONFLICT \(key\) DO UPDATE/);
    expect(() => pg('REPLACE INTO t VALUES (1)')).toThrow(/ON CONFLICT \(key\) DO UPDATE/);
    expect(() => pg('INSERT OR ABORT INTO t VALUES (1)')).toThrow(/INSERT OR ABORT/);
    // replace() the string function is portable.
    expect(pg("SELECT replace(a, 'x', 'y') FROM t WHERE b OR replace(a, 'x', '') = ''")).toContain('replace(a');
  });

  test('IS and IS NOT against a value compare null-safely, as in SQLite; IS [NOT] NULL stays', () => {
    expect(pg('UPDATE t SET a = 1 WHERE b IS ? AND c IS NOT ? AND d IS NOT NULL AND e IS NULL AND f IS d')).toBe(
      'UPDATE t SET a = 1 WHERE b IS NOT DISTINCT FROM $1 AND c IS DISTINCT FROM $2 AND d IS NOT NULL AND e IS NULL AND f IS NOT DISTINCT FROM d',
    );
  });

  test('scalar MAX/MIN become GREATEST/LEAST; the aggregates stay', () => {
    expect(pg('UPDATE t SET a = MAX(a, ?), b = min(b, (SELECT max(c) FROM u))')).toBe(
      'UPDATE t SET a = GREATEST(a, $1), b = LEAST(b, (SELECT max(c) FROM u))',
    );
    expect(pg('SELECT MAX(seq), t.max FROM t')).toBe('SELECT MAX(seq), t.max FROM t');
  });

  test('json_each becomes json_array_elements_text, keeping the table name or alias', () => {
    expect(pg('SELECT value FROM json_each(?) WHERE value = ?')).toBe(
      'SELECT value FROM json_array_elements_text(($1)::json) AS json_each(value) WHERE value = $2',
    );
    expect(pg('SELECT j.value FROM t, json_each(t.tags) AS j')).toBe(
      'SELECT j.value FROM t, json_array_elements_text((t.tags)::json) AS j',
    );
    expect(pg('SELECT j.value FROM t, json_each(t.tags) j WHERE 1')).toBe(
      'SELECT j.value FROM t, json_array_elements_text((t.tags)::json) j WHERE 1',
    );
    expect(() => pg("SELECT * FROM json_each(x, '$.a')")).toThrow(/path argument/);
  });

  test('ifnull is COALESCE; == is =; CAST to INTEGER keeps 8 bytes; an alias called real stays', () => {
    expect(pg('SELECT ifnull(a, 0) AS real FROM t WHERE CAST(b AS INTEGER) == 1 AND CAST(c AS REAL) > 0')).toBe(
      'SELECT COALESCE(a, 0) AS real FROM t WHERE CAST(b AS BIGINT) = 1 AND CAST(c AS DOUBLE PRECISION) > 0',
    );
  });

  test('SQLite-only constructs are refused at prepare time, naming the portable form', () => {
    expect(() => pg("SELECT * FROM events WHERE type GLOB 'build.*'")).toThrow(/GLOB.*LIKE/);
    expect(() => pg('PRAGMA table_info(t)')).toThrow(/PRAGMA/);
    expect(() => pg("SELECT name FROM sqlite_master WHERE type = 'table'")).toThrow(/sqlite_master/);
    expect(() => pg('SELECT rowid FROM t')).toThrow(/rowid/);
    expect(() => pg('SELECT * FROM t b ORDER BY b.rowid')).toThrow(/rowid/);
    expect(() => pg('SELECT last_insert_rowid()')).toThrow(/RETURNING/);
    expect(() => pg('SELECT changes()')).toThrow(/run\(\) returns/);
    expect(() => pg("SELECT strftime('%s', 'now')")).toThrow(/epoch milliseconds/);
    expect(() => pg('SELECT group_concat(a) FROM t')).toThrow(/group_concat/);
    expect(() => pg('SELECT a FROM t ORDER BY a COLLATE NOCASE')).toThrow(/lower\(x\)/);
    expect(() => pg('SELECT [a] FROM t')).toThrow(/double quotes/);
    // The same words are fine as strings, quoted identifiers and qualified columns.
    expect(pg(`SELECT 'GLOB', "rowid", t.changes FROM t`)).toBe(`SELECT 'GLOB', "rowid", t.changes FROM t`);
  });
});

describe('DDL', () => {
  test('text columns sort by bytes as in SQLite (COLLATE "C"), once, and only in DDL', () => {
    const ddl = toPostgresDdl("CREATE TABLE t (a TEXT NOT NULL, b text, c INTEGER CHECK (CAST(c AS TEXT) <> ''))");
    expect(ddl).toBe(
      'CREATE TABLE t (a TEXT COLLATE "C" NOT NULL, b text COLLATE "C", c BIGINT CHECK (CAST(c AS TEXT) <> \'\'))',
    );
    expect(toPostgresDdl(ddl)).toBe(ddl);
    expect(toPostgresDdl('ALTER TABLE t ADD COLUMN d TEXT')).toBe('ALTER TABLE t ADD COLUMN d TEXT COLLATE "C"');
    expect(pg('SELECT CAST(a AS TEXT) FROM t')).toBe('SELECT CAST(a AS TEXT) FROM t');
    expect(() => pg('SELECT a FROM t ORDER BY a COLLATE "C"')).toThrow(/COLLATE/);
  });

  test('integers are 8 bytes, REAL is DOUBLE PRECISION, BLOB is BYTEA, WITHOUT ROWID and STRICT go', () => {
    expect(
      toPostgresDdl(
        'CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, at integer NOT NULL, ratio REAL, body BLOB, "real" TEXT) WITHOUT ROWID',
      ),
    ).toBe(
      'CREATE TABLE IF NOT EXISTS t (id BIGINT PRIMARY KEY, at BIGINT NOT NULL, ratio DOUBLE PRECISION, body BYTEA, "real" TEXT COLLATE "C")',
    );
    expect(toPostgresDdl('CREATE TABLE t (a INTEGER) STRICT;\nALTER TABLE t ADD COLUMN b INTEGER')).toBe(
      'CREATE TABLE t (a BIGINT);\nALTER TABLE t ADD COLUMN b BIGINT',
    );
    expect(toPostgresDdl('CREATE INDEX IF NOT EXISTS t_a ON t (a, b) WHERE a IS NOT NULL')).toBe(
      'CREATE INDEX IF NOT EXISTS t_a ON t (a, b) WHERE a IS NOT NULL',
    );
    expect(() => toPostgresDdl('CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT)')).toThrow(/AUTOINCREMENT/);
    // Columns named like keywords still get 8-byte integers; translating twice changes nothing.
    const kv = toPostgresDdl('CREATE TABLE kv (key INTEGER, "by" INTEGER, at INTEGER REFERENCES t (a))');
    expect(kv).toBe('CREATE TABLE kv (key BIGINT, "by" BIGINT, at BIGINT REFERENCES t (a))');
    expect(toPostgresDdl(kv)).toBe(kv);
  });
});
