/**
 * Something a module announces (a user was created, a project was created) that modules above it
 * react to, in the order the wiring created them. Listeners run one after the other, inside the
 * announcer's transaction when it passes one.
 */
export class Hook<Args extends unknown[]> {
  private readonly listeners: Array<(...args: Args) => Promise<void>> = [];

  subscribe(listener: (...args: Args) => Promise<void>): void {
    this.listeners.push(listener);
  }

  async run(...args: Args): Promise<void> {
    for (const listener of this.listeners) await listener(...args);
  }
}

/**
 * What a module needs from a module above it (users ask teams about the selected team): the lower
 * module declares the port, the higher one provides it, once, when it is wired.
 */
export class Port<Provider> {
  private value: Provider | undefined;

  constructor(private readonly description: string) {}

  provide(provider: Provider): void {
    if (this.value) throw new Error(`${this.description} is provided twice`);
    this.value = provider;
  }

  /** The provider; throws when no module provided one (a wiring mistake, not a request error). */
  get provider(): Provider {
    if (!this.value) throw new Error(`${this.description} was not provided by any module`);
    return this.value;
  }
}
