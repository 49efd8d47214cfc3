// The error classes live in @gatehouse/protocol; the client re-exports them for its users.
export * from '@gatehouse/protocol/errors';
