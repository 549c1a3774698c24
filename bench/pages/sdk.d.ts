/**
 * The part of `new Magic(…)` the bench page uses, common to ours and the
 * published SDK; the bundler picks which one `bench:magic` is.
 */
declare module 'bench:magic' {
  export class Magic {
    constructor(
      apiKey: string,
      options: {
        endpoint: string
        network: { rpcUrl: string; chainId: number }
      },
    )
    rpcProvider: {
      request(args: { method: string; params?: unknown }): Promise<unknown>
    }
    preload(): Promise<void>
  }
}

/**
 * The game wallet's `Passport`, ours or the published one; the page types
 * the part it uses itself (bench/pages/gameHarness.ts).
 */
declare module 'bench:passport' {
  export const Passport: unknown
}
