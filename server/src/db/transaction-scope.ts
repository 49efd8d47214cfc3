import { AsyncLocalStorage } from 'node:async_hooks';
import { DatabaseBusyError } from '@gatehouse/protocol/errors';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type TransactionSettings } from 'kysely';

/**
 * The transaction the current async context is inside of, if any. `inTransaction` (handle.ts) opens
 * one; the driver below routes every query made within it (through the transaction's own handle or
 * through any other handle of the same database) to the transaction's connection. So code inside a
 * transaction can never wait for a second pooled connection while holding one: the hang of 12
 * concurrent membership adds on a pool of 10 cannot happen, whichever handle a service reads through.
 */
export type TransactionScope = {
  /** The driver whose connection the transaction holds (claimed by its first acquire). */
  driver?: ScopedDriver;
  /** The transaction's connection, once Kysely has acquired it for the transaction. */
  connection?: DatabaseConnection;
  /** False once the transaction ended: work that outlives it (a late callback) takes its own connection. */
  open: boolean;
  /** Savepoints opened inside this transaction so far (names them). */
  savepoints: number;
};

const scopes = new AsyncLocalStorage<TransactionScope>();

export const currentScope = (): TransactionScope | undefined => scopes.getStore();

/** Runs `work` as the one transaction of this async context (see `inTransaction`). */
export async function runInScope<T>(work: () => Promise<T>): Promise<T> {
  const scope: TransactionScope = { open: true, savepoints: 0 };
  try {
    return await scopes.run(scope, work);
  } finally {
    scope.open = false;
  }
}

/** A connection handed out inside a transaction's scope: the transaction's own, shared, never released. */
class BorrowedConnection implements DatabaseConnection {
  savepoint?: string;
  constructor(
    readonly scope: TransactionScope,
    private readonly inner: DatabaseConnection,
  ) {}
  executeQuery: DatabaseConnection['executeQuery'] = (query) => this.inner.executeQuery(query);
  streamQuery: DatabaseConnection['streamQuery'] = (query, chunkSize) => this.inner.streamQuery(query, chunkSize);
}

export type ScopedDriverOptions = {
  /** Longest wait for a free connection before the request fails with DATABASE_BUSY (503). */
  acquireTimeoutMs: number;
  /**
   * One connection at a time (PGlite: one session shared by every caller). Without it, statements of
   * concurrent requests would run inside another request's open transaction.
   */
  exclusive: boolean;
  /** Tells whether an error of the inner driver's acquire is its own pool timeout (pg's connectionTimeoutMillis). */
  isAcquireTimeout?: (error: unknown) => boolean;
};

/**
 * Wraps a dialect's driver so that: a query inside a transaction's scope uses the transaction's
 * connection; a transaction begun inside another becomes a savepoint; waiting for a connection ends
 * after `acquireTimeoutMs` with DATABASE_BUSY; and an exclusive database is used by one caller at a time.
 */
export class ScopedDriver implements Driver {
  private readonly waiters: Array<() => void> = [];
  private busy = false;

  constructor(
    private readonly inner: Driver,
    private readonly options: ScopedDriverOptions,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const scope = scopes.getStore();
    if (scope?.open && scope.driver === this && scope.connection) return new BorrowedConnection(scope, scope.connection);
    if (scope?.open && scope.driver === undefined) {
      // The transaction's own connection: Kysely acquires it right before beginning the transaction.
      scope.driver = this;
      const connection = await this.acquireOwn();
      scope.connection = connection;
      return connection;
    }
    return this.acquireOwn();
  }

  private async acquireOwn(): Promise<DatabaseConnection> {
    if (this.options.exclusive) await this.lock();
    try {
      return await this.inner.acquireConnection();
    } catch (error) {
      if (this.options.exclusive) this.unlock();
      if (this.options.isAcquireTimeout?.(error)) throw new DatabaseBusyError();
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof BorrowedConnection) return;
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      if (this.options.exclusive) this.unlock();
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (connection instanceof BorrowedConnection) {
      connection.savepoint = `gatehouse_sp_${++connection.scope.savepoints}`;
      await connection.executeQuery(CompiledQuery.raw(`savepoint ${connection.savepoint}`));
      return;
    }
    await this.inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof BorrowedConnection) {
      await connection.executeQuery(CompiledQuery.raw(`release savepoint ${connection.savepoint}`));
      return;
    }
    await this.inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof BorrowedConnection) {
      await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${connection.savepoint}`));
      return;
    }
    await this.inner.rollbackTransaction(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** Waits for the exclusive database, at most `acquireTimeoutMs`. */
  private lock(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(new DatabaseBusyError());
      }, this.options.acquireTimeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Hands the exclusive database to the next waiter (it stays busy), or frees it. */
  private unlock(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.busy = false;
  }
}

/** The dialect with its driver wrapped in a ScopedDriver. */
export function scopedDialect(dialect: Dialect, options: ScopedDriverOptions): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new ScopedDriver(dialect.createDriver(), options),
  };
}
