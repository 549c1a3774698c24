/**
 * The published `ProviderEvent` values: the provider event names dApps pass
 * to `on` (a runtime object, as the published enum is). Kept apart from the
 * provider so that naming an event does not load it.
 *
 * @example
 * ```ts
 * import { ProviderEvent } from 'embedded-wallets/passport'
 *
 * provider.on(ProviderEvent.ACCOUNTS_CHANGED, (accounts) => {})
 * ```
 */
export const ProviderEvent = { ACCOUNTS_CHANGED: 'accountsChanged' } as const

/** One of the {@link ProviderEvent} values. */
export type ProviderEvent = (typeof ProviderEvent)[keyof typeof ProviderEvent]
