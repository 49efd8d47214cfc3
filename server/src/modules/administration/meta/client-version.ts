/** The protocol line of the Stack SDKs this server speaks, and this server's own packages' version. */
const stackLine = { major: 2, minor: 8 } as const;
const gatehouseLine = { major: 0, minor: 1 } as const;

export type VersionCheck = { upToDate: true } | { upToDate: false; error: string; severe: boolean };

/**
 * `POST /check-version`: the verdict on an SDK's version string (`js @stackframe/js@2.8.108`, `2.8.1`,
 * `js @gatehouse/client@0.1.0`); the rules and messages are in the spec (checkClientVersion).
 */
export function checkClientVersion(clientVersion: string): VersionCheck {
  const match = /(?:^|[\s@])v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:[-+][0-9A-Za-z.+-]*)?\s*$/.exec(clientVersion);
  if (!match)
    return {
      upToDate: false,
      severe: true,
      error: `The client version you specified (${clientVersion}) is not a valid version. Please update to the latest version as soon as possible to ensure that you get the latest feature and security updates.`,
    };
  const major = Number(match[1]);
  const minor = Number(match[2]);
  const compare = (line: { major: number; minor: number }) => major - line.major || minor - line.minor;
  if (/@gatehouse\//.test(clientVersion)) {
    if (compare(gatehouseLine) === 0) return { upToDate: true };
    return {
      upToDate: false,
      severe: false,
      error: `Your SDK (${clientVersion}) was built for another Gatehouse version (this server is ${gatehouseLine.major}.${gatehouseLine.minor}); use the packages of this server's release.`,
    };
  }
  const order = compare(stackLine);
  if (order === 0) return { upToDate: true };
  if (order < 0)
    return {
      upToDate: false,
      severe: true,
      error: `Your SDK (${clientVersion}) is older than the protocol this Gatehouse server speaks (Stack Auth SDK 2.8). Please update it to 2.8 or newer.`,
    };
  return {
    upToDate: false,
    severe: false,
    error: `Your SDK (${clientVersion}) is newer than the protocol this Gatehouse server speaks (Stack Auth SDK 2.8); features it adds may answer that they are not supported.`,
  };
}
