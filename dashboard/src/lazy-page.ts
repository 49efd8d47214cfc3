import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A page as a chunk of its own (`React.lazy` over a named export), loaded the first time it is shown while
 * the shell's Suspense shows the loading state. A chunk that cannot be fetched (the platform restarted with
 * a new build, the network dropped) fails with a message saying what to do, shown by the page's error boundary.
 */
export function lazyPage<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
): Module[Name] extends ComponentType<infer Props> ? LazyExoticComponent<ComponentType<Props>> : never {
  return lazy(async () => {
    let module: Module;
    try {
      module = await load();
    } catch {
      throw new PageChunkError();
    }
    return { default: module[name] as ComponentType<unknown> };
  }) as never;
}

/** A page's chunk that could not be fetched: the error boundary says what to do in the active language. */
export class PageChunkError extends Error {
  constructor() {
    super('This page’s code could not be loaded (the dashboard may have been updated). Reload the page.');
  }
}
