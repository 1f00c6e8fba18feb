// The one Node API the bench worker uses (workerd provides it under nodejs_compat); the project's
// types are the Workers' only, so it is declared here (scripts/bench/write-tracer.ts).
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}
