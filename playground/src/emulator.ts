/**
 * The emulator's description (its JSON line), which `npm start` hands to the
 * playground in the `VITE_EMULATOR_INFO` environment variable.
 */
export type EmulatorInfo = {
  chainId: number
  rpcUrl: string
  contracts: Record<string, string>
  mailbox: string
  /** The emulated iframe wallet provider, when the emulator runs it. */
  magic?: { endpoint: string; apiKey: string } | undefined
  /** The emulated game wallet identity provider, when the emulator runs it. */
  passport?: PassportInfo | undefined
}

/**
 * The game wallet's sign-in as the emulator describes it: the identity
 * provider's origin, its client id and the playground's two callback pages
 * (on the playground's own origin: `npm start` passes them to the emulator).
 */
export type PassportInfo = {
  authenticationDomain: string
  clientId: string
  redirectUri: string
  logoutRedirectUri: string
}

/** The emulator info, or why the playground has none. */
export type ReadResult =
  | { ok: true; info: EmulatorInfo }
  | { ok: false; reason: string }

/**
 * Reads and checks the emulator's JSON line.
 *
 * @param raw - The value of `VITE_EMULATOR_INFO`.
 * @returns The info, or a sentence saying what is wrong.
 */
export function readEmulatorInfo(raw: string | undefined): ReadResult {
  if (raw === undefined || raw.trim() === '')
    return { ok: false, reason: 'VITE_EMULATOR_INFO is not set.' }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return { ok: false, reason: 'VITE_EMULATOR_INFO is not valid JSON.' }
  }
  if (!isInfo(value))
    return {
      ok: false,
      reason: 'VITE_EMULATOR_INFO lacks chainId, rpcUrl, contracts or mailbox.',
    }
  return { ok: true, info: value }
}

function isInfo(value: unknown): value is EmulatorInfo {
  if (typeof value !== 'object' || value === null) return false
  const info = value as Record<string, unknown>
  return (
    Number.isSafeInteger(info.chainId) &&
    typeof info.rpcUrl === 'string' &&
    typeof info.mailbox === 'string' &&
    typeof info.contracts === 'object' &&
    info.contracts !== null &&
    Object.values(info.contracts).every((v) => typeof v === 'string') &&
    (info.magic === undefined || isMagicInfo(info.magic)) &&
    (info.passport === undefined || isPassportInfo(info.passport))
  )
}

function isMagicInfo(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const magic = value as Record<string, unknown>
  return typeof magic.endpoint === 'string' && typeof magic.apiKey === 'string'
}

function isPassportInfo(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const passport = value as Record<string, unknown>
  return (
    ['authenticationDomain', 'redirectUri', 'logoutRedirectUri'].every(
      (key) => typeof passport[key] === 'string' && URL.canParse(passport[key]),
    ) && typeof passport.clientId === 'string'
  )
}
