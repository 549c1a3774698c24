/**
 * wagmi's connector type, through whichever wagmi package the app has. An
 * app that installed `wagmi` gets `@wagmi/core` nested under it by npm,
 * where a package beside `wagmi` cannot resolve it; an app on `@wagmi/core`
 * alone (vanilla, Vue) has no `wagmi`. Both are imported for types only and
 * the one that resolves is used, so the connectors' types never silently
 * become `any`.
 *
 * Declarations only, shipped as written: a declaration bundler would drop
 * the directives below. They are block comments, and `@ts-ignore` because
 * `@ts-expect-error` would fail wherever the import does resolve.
 */
/** @ts-ignore unresolved where npm nested `@wagmi/core` under `wagmi` */
import type * as Core from '@wagmi/core'
/** @ts-ignore unresolved in an app on `@wagmi/core` alone */
import type * as Wagmi from 'wagmi'

/** Whether `@wagmi/core` resolved (an unresolved import's types are `any`). */
type CoreResolves = unknown extends Core.CreateConnectorFn ? false : true

type Properties = Record<string, unknown>

/** wagmi's `CreateConnectorFn`, from `@wagmi/core` or else from `wagmi`. */
export type CreateConnectorFn<
  provider = unknown,
  properties extends Properties = Properties,
  storageItem extends Properties = Properties,
> = CoreResolves extends true
  ? Core.CreateConnectorFn<provider, properties, storageItem>
  : Wagmi.CreateConnectorFn<provider, properties, storageItem>
