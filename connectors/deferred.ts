/**
 * A stand-in for a client's EIP-1193 provider that loads the client on its
 * first use. wagmi's `reconnect` asks every connector for its provider
 * before asking `isAuthorized`; a connector answering with the real one
 * would load its client (and the iframe wallet its iframe) on every page
 * load, session or not.
 */

/** What the stand-in forwards: EIP-1193 `request`, `on` and `removeListener`. */
type Provider = {
  // biome-ignore lint/suspicious/noExplicitAny: forwards whatever the provider's own signature takes.
  request(...args: any[]): Promise<unknown>
  // biome-ignore lint/suspicious/noExplicitAny: idem.
  on(...args: any[]): unknown
  // biome-ignore lint/suspicious/noExplicitAny: idem.
  removeListener(...args: any[]): unknown
}

/**
 * A provider that forwards to `load()`'s, calling it on the first request or
 * listener. `load` must answer the same provider each time (the connector
 * keeps it), so that a listener added and then removed reach the same one,
 * in that order.
 */
export function deferred<provider extends Provider>(
  load: () => Promise<provider>,
): Pick<provider, 'request' | 'on' | 'removeListener'> {
  // A provider that fails to load reports it on `request`; a listener has
  // nothing to listen to then.
  const ignore = () => {}
  const stand: Provider = {
    request: async (...args) => (await load()).request(...args),
    on(...args) {
      load().then((provider) => provider.on(...args), ignore)
    },
    removeListener(...args) {
      load().then((provider) => provider.removeListener(...args), ignore)
    },
  }
  return stand as Pick<provider, 'request' | 'on' | 'removeListener'>
}
