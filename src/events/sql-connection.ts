/**
 * The SQL surface projections, side-table writers and read-model readers get, whichever store holds the
 * log. better-sqlite3's Database and Statement satisfy it as they are; the PostgreSQL store hands out an
 * adapter that translates the same SQL (see docs/portable-sql.md).
 *
 * SQL written against it must be portable: `?` or `@name` parameters, upserts with `ON CONFLICT (...)`,
 * no `INSERT OR REPLACE`, no SQLite-only functions, CAST a parameter whose type nothing else fixes
 * (`CAST(? AS TEXT) IS NULL`), and snake_case column aliases (PostgreSQL folds unquoted names to lower case).
 */
export interface SqlRunResult {
  readonly changes: number;
}

/**
 * A prepared statement. Parameters are positional values, or one object for `@name` parameters.
 * Values are numbers, strings, null (and Buffers for blobs); never booleans or undefined.
 */
export interface SqlStatement {
  run(...params: unknown[]): SqlRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqlConnection {
  prepare(sql: string): SqlStatement;
  /** One or more statements without parameters (DDL). */
  exec(sql: string): unknown;
}
