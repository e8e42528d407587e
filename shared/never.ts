/** Ends every switch over events or commands: adding a case without handling it fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
}
