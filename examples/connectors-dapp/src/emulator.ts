import type { Info } from 'embedded-wallets/emulator'

export type { Info }

/**
 * The emulator's JSON line, which this dApp reads at run time from
 * `/emulator.json`: by hand, write the line `npx embedded-wallets emulator`
 * prints to `public/emulator.json`; the Playwright suite serves the line of
 * its worker's emulator at that path. Nothing else in the dApp knows it
 * talks to an emulator: the wallets' documented options carry every URL.
 */
export async function loadEmulatorInfo(): Promise<Info> {
  const response = await fetch('/emulator.json', { cache: 'no-store' })
  if (!response.ok)
    throw new Error(
      `GET /emulator.json answered ${response.status}: write the emulator's JSON line to public/emulator.json.`,
    )
  return (await response.json()) as Info
}
