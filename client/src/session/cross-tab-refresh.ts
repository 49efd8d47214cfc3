/** The slice of the Web Locks API used here; tests pass a fake. */
export type LockManagerLike = {
  request<T>(name: string, callback: (lock: unknown) => Promise<T>): Promise<T>;
};

/** The slice of BroadcastChannel used here; tests pass a fake. */
export type BroadcastChannelLike = {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

export type CrossTabOptions = {
  /** `navigator.locks` in a browser; null turns the lock off. */
  locks?: LockManagerLike | null;
  /** Opens a BroadcastChannel in a browser; null turns announcements off. */
  broadcastChannel?: ((name: string) => BroadcastChannelLike) | null;
};

/**
 * What a tab tells the others: it starts a refresh, then either its outcome (no access token: the
 * session ended) or that it failed, so waiting tabs go ahead themselves.
 */
export type RefreshAnnouncement =
  | { type: 'refreshing' }
  | { type: 'refreshed'; refreshToken: string; accessToken?: string }
  | { type: 'refresh-failed' };

export type CrossTabRefresh = {
  /** Runs the task once no other tab of this project is refreshing, as far as the platform can tell. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  announce(message: RefreshAnnouncement): void;
};

/** How long a tab waits for another tab's announced refresh before refreshing itself. */
const FOREIGN_REFRESH_WAIT_MS = 10_000;

/**
 * Keeps the tabs of a browser from refreshing the same session at once: Web Locks where present
 * (the refresh reads the store again inside the lock), else BroadcastChannel announcements, else
 * nothing beyond the in-process single flight. Only in a browser by default: on a server, one
 * process holds many users' sessions of the same project, and they must not wait on each other.
 */
export function createCrossTabRefresh(
  name: string,
  options: CrossTabOptions,
  onAnnouncement: (message: RefreshAnnouncement) => void,
): CrossTabRefresh {
  const inBrowser = typeof window !== 'undefined';
  const locks = options.locks === undefined ? (inBrowser ? navigator.locks : undefined) : options.locks;
  if (locks) return { exclusive: (task) => locks.request(name, () => task()), announce: () => {} };

  const openChannel = options.broadcastChannel === undefined ? (inBrowser ? defaultChannel : undefined) : options.broadcastChannel;
  const channel = openChannel?.(name);
  if (!channel) return { exclusive: (task) => task(), announce: () => {} };

  let foreignRefresh: { promise: Promise<void>; settle: () => void } | undefined;
  channel.addEventListener('message', (event) => {
    const message = event.data as RefreshAnnouncement | null;
    if (message?.type === 'refreshing') {
      foreignRefresh ??= waitForAnnouncement();
    } else if (message?.type === 'refreshed' || message?.type === 'refresh-failed') {
      onAnnouncement(message);
      foreignRefresh?.settle();
    }
  });

  function waitForAnnouncement() {
    let settle = () => {};
    const promise = new Promise<void>((resolve) => {
      const timer = setTimeout(() => settle(), FOREIGN_REFRESH_WAIT_MS);
      settle = () => {
        clearTimeout(timer);
        foreignRefresh = undefined;
        resolve();
      };
    });
    return { promise, settle };
  }

  return {
    async exclusive(task) {
      if (foreignRefresh) await foreignRefresh.promise;
      return task();
    },
    announce: (message) => channel.postMessage(message),
  };
}

function defaultChannel(name: string): BroadcastChannelLike | undefined {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : undefined;
}
