/**
 * The emulator's description (its JSON line), which `npm start` hands to the
 * playground in the `VITE_EMULATOR_INFO` environment variable.
 *
 * Its type is the emulator's own `Info`, imported as a type only: nothing of
 * the Node emulator reaches the browser bundle. The JSON is still checked at
 * run time, since it comes from outside the bundle (an environment variable
 * someone may have set by hand); fields this page does not know are allowed,
 * so that a newer emulator still works.
 */
import type { Info } from 'embedded-wallets/emulator'

export type { Info }

/** The game wallet's sign-in as the emulator describes it. */
export type PassportInfo = Info['passport']

/** The emulator info, or why the playground has none. */
export type ReadResult =
  | { ok: true; info: Info }
  | { ok: false; reason: string }

/**
 * Every contract of `Info['contracts']`. The `satisfies` ties the list to the
 * emulator's type: a contract added there fails the type check here until
 * the run-time check covers it too.
 */
const contractNames = {
  factory: true,
  mainModule: true,
  mainModuleUpgradable: true,
  guestModule: true,
  sequenceUtils: true,
  erc20: true,
  testErc721: true,
  testErc1155: true,
  sponsoredCallDelegate: true,
  coSigner: true,
  conduitController: true,
  seaport: true,
  signedZone: true,
  operatorAllowlist: true,
  erc721: true,
  erc1155: true,
} as const satisfies Record<keyof Info['contracts'], true>

/** The `passport.overrides` that must be URLs (the wallet calls each). */
const overrideUrls = [
  'authenticationDomain',
  'passportDomain',
  'imxPublicApiDomain',
  'indexerMrBasePath',
  'orderBookMrBasePath',
  'passportMrBasePath',
  'zkEvmRpcUrl',
  'relayerUrl',
  'magicTeeBasePath',
  'magicEndpoint',
] as const satisfies readonly (keyof PassportInfo['overrides'])[]

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
  const problem = problemOf(value)
  if (problem !== undefined)
    return { ok: false, reason: `VITE_EMULATOR_INFO: ${problem}` }
  return { ok: true, info: value as Info }
}

/** What is wrong with `value` as an `Info`, or `undefined` if nothing. */
function problemOf(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a JSON object.'
  if (!Number.isSafeInteger(value.chainId)) return 'chainId is not an integer.'
  if (!isUrl(value.rpcUrl)) return 'rpcUrl is not a URL.'
  if (!isUrl(value.mailbox)) return 'mailbox is not a URL.'
  const { contracts, magic, passport } = value
  if (!isObject(contracts)) return 'contracts is missing.'
  for (const name of Object.keys(contractNames))
    if (!isAddress(contracts[name]))
      return `contracts.${name} is not an address.`
  if (!isObject(magic)) return 'the magic section is missing.'
  if (!isUrl(magic.endpoint)) return 'magic.endpoint is not a URL.'
  if (typeof magic.apiKey !== 'string' || magic.apiKey === '')
    return 'magic.apiKey is missing.'
  if (!isObject(passport)) return 'the passport section is missing.'
  for (const key of [
    'authenticationDomain',
    'redirectUri',
    'logoutRedirectUri',
    'apiUrl',
    'passportDomain',
    'relayerUrl',
  ] as const)
    if (!isUrl(passport[key])) return `passport.${key} is not a URL.`
  if (typeof passport.clientId !== 'string' || passport.clientId === '')
    return 'passport.clientId is missing.'
  const { overrides } = passport
  if (!isObject(overrides)) return 'passport.overrides is missing.'
  for (const key of overrideUrls)
    if (!isUrl(overrides[key])) return `passport.overrides.${key} is not a URL.`
  for (const key of ['magicPublishableApiKey', 'magicProviderId'] as const)
    if (typeof overrides[key] !== 'string' || overrides[key] === '')
      return `passport.overrides.${key} is missing.`
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isUrl(value: unknown): value is string {
  return typeof value === 'string' && URL.canParse(value)
}

function isAddress(value: unknown): value is string {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)
}
