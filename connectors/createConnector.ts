import type { CreateConnectorFn } from './wagmi.js'

/**
 * wagmi's `createConnector`, which only types its argument: written here so
 * that the connectors import nothing of wagmi at run time (see wagmi.d.ts).
 */
export function createConnector<
  provider,
  properties extends Record<string, unknown> = Record<string, unknown>,
  storageItem extends Record<string, unknown> = Record<string, unknown>,
>(
  create: CreateConnectorFn<provider, properties, storageItem>,
): CreateConnectorFn<provider, properties, storageItem> {
  return create
}
