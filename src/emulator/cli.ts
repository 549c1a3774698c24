/**
 * Command-line flags of the emulator (`embedded-wallets emulator`) and of
 * `npm start`, parsed by one pure function.
 *
 * @packageDocumentation
 */
import { BaseError } from '../core/Errors.js'
import { defaultLogoutRedirectUri, defaultRedirectUri } from './constants.js'
import { defaultPortBase, maxPortBase, slots } from './ports.js'

/** How a numeric flag's value is checked. */
export type NumberKind = 'port' | 'portBase' | 'chainId'

/**
 * How a flag's value is checked: a number in the kind's range, or `url`,
 * an absolute `http:` or `https:` URL without a fragment.
 */
export type Kind = NumberKind | 'url'

/** A command-line flag. */
export type Flag = NumberFlag | UrlFlag

/** A flag whose value is an integer in its kind's range. */
export type NumberFlag = {
  /** The flag as typed, e.g. `'--port-base'`. */
  readonly name: `--${string}`
  /** The value when the flag is absent. */
  readonly default: number
  /** How the value is checked. */
  readonly kind: NumberKind
  /** One line for the usage text. */
  readonly description: string
}

/** A flag whose value is an absolute http(s) URL, returned as typed. */
export type UrlFlag = {
  /** The flag as typed, e.g. `'--redirect-uri'`. */
  readonly name: `--${string}`
  /**
   * The value when the flag is absent; `undefined` leaves the choice to the
   * program (its description then says what it uses).
   */
  readonly default: string | undefined
  /** How the value is checked. */
  readonly kind: 'url'
  /** One line for the usage text. */
  readonly description: string
}

/** The type of a flag's parsed value. */
export type Value<flag extends Flag> = flag extends UrlFlag
  ? flag['default'] extends string
    ? string
    : string | undefined
  : number

/** Flags by the key they are returned under. */
export type Flags = { readonly [key: string]: Flag }

/** The emulator's flags. */
export const emulatorFlags = {
  portBase: {
    name: '--port-base',
    default: defaultPortBase,
    kind: 'portBase',
    // Counted from the slots, so that a service that joins updates the text.
    description: `Port of the dev mailbox; the other services take the next ${slots.length - 1} ports`,
  },
  anvilPort: {
    name: '--anvil-port',
    default: 8545,
    kind: 'port',
    description: 'Port of the Anvil JSON-RPC node',
  },
  chainId: {
    name: '--chain-id',
    default: 31337,
    kind: 'chainId',
    description: 'Chain id of the local chain',
  },
  redirectUri: {
    name: '--redirect-uri',
    default: defaultRedirectUri,
    kind: 'url',
    description:
      'Game wallet login callback page (passport.redirectUri): the login popup lands there too, so that page must call passport.loginCallback(); loopback http URLs only',
  },
  logoutRedirectUri: {
    name: '--logout-redirect-uri',
    default: defaultLogoutRedirectUri,
    kind: 'url',
    description:
      'Game wallet logout page (passport.logoutRedirectUri); loopback http URLs only',
  },
} as const satisfies Flags

/** The emulator command's usage header. */
export const emulatorCommand = {
  usage: 'embedded-wallets emulator [options]',
  summary:
    'Starts Anvil, deploys the contracts, starts the emulated services, prints one JSON line describing them on stdout, and runs until Ctrl-C.',
  // What a developer wiring their own app would otherwise have to guess.
  notes: [
    "Your own app: name its pages with --redirect-uri and --logout-redirect-uri (any loopback http port); the JSON line then prints them as passport.redirectUri and passport.logoutRedirectUri for your game wallet's config. The login popup lands on redirectUri too: that page must create the same Passport and call passport.loginCallback().",
    "The game wallet's overrides: pass the JSON line's passport.overrides whole (this package's Passport and the published @imtbl/passport take it unchanged). The complete config, the callback page and the published SDK's extra options are in this package's README.md, section \"The game wallet (sign-in)\".",
    'The iframe wallet: new Magic(magic.apiKey, { endpoint: magic.endpoint }). Login codes and links land in the dev mailbox: GET <mailbox>?to=<email or phone>.',
  ],
} as const satisfies Command

/**
 * Parses command-line flags (`--name value` or `--name=value`, and `--help`
 * or `-h`). Pure: it reads nothing but `argv` and prints nothing.
 *
 * @example
 * ```ts
 * import { parseArgs } from './cli.js'
 *
 * parseArgs(['--port-base', '5000', '--redirect-uri=http://localhost:3000/cb'])
 * // { help: false, portBase: 5000, anvilPort: 8545, chainId: 31337,
 * //   redirectUri: 'http://localhost:3000/cb',
 * //   logoutRedirectUri: 'http://localhost:5173/passport/logout' }
 * ```
 *
 * @param argv - The arguments after the command, e.g. `process.argv.slice(3)`.
 * @param options.flags - The accepted flags. @default emulatorFlags
 * @param options.command - The usage header. @default emulatorCommand
 * @returns `help` and each flag's value under its key.
 * @throws {UsageError} On an unknown flag, a missing value or an invalid value.
 */
export function parseArgs<const flags extends Flags = typeof emulatorFlags>(
  argv: readonly string[],
  options: parseArgs.Options<flags> = {},
): parseArgs.ReturnType<flags> {
  const flags = (options.flags ?? emulatorFlags) as flags
  const text = usage({ flags, command: options.command ?? emulatorCommand })
  const values: Record<string, number | string | undefined> = {}
  for (const [key, flag] of Object.entries(flags)) values[key] = flag.default
  let help = false

  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    if (argument === '--help' || argument === '-h') {
      help = true
      continue
    }
    const separator = argument.indexOf('=')
    const name = separator === -1 ? argument : argument.slice(0, separator)
    const entry = Object.entries(flags).find(([, flag]) => flag.name === name)
    if (!entry || !argument.startsWith('--'))
      throw new UsageError(`Unknown argument ${argument}.`, { usage: text })
    const [key, flag] = entry
    let raw: string | undefined
    if (separator !== -1) raw = argument.slice(separator + 1)
    else {
      raw = argv[index + 1]
      if (raw === undefined || /^-\D/.test(raw))
        throw new UsageError(`${name} needs a value.`, { usage: text })
      index++
    }
    values[key] = parseValue(flag, raw, text)
  }

  return { help, ...values } as parseArgs.ReturnType<flags>
}

export declare namespace parseArgs {
  type Options<flags extends Flags = typeof emulatorFlags> = {
    /** The accepted flags. @default emulatorFlags */
    flags?: flags | undefined
    /** The usage header. @default emulatorCommand */
    command?: Command | undefined
  }
  type ReturnType<flags extends Flags = typeof emulatorFlags> = {
    /** Whether `--help` or `-h` was given. */
    help: boolean
  } & { [key in keyof flags]: Value<flags[key]> }
}

/** A command's usage header. */
export type Command = {
  /** The synopsis, e.g. `'embedded-wallets emulator [options]'`. */
  readonly usage: string
  /** One sentence on what the command does. */
  readonly summary: string
  /** Paragraphs printed after the options. */
  readonly notes?: readonly string[] | undefined
}

/**
 * Builds the usage text of a command from its flags.
 *
 * @param options.flags - The accepted flags.
 * @param options.command - The usage header.
 * @returns The text, ending with a newline.
 */
export function usage(options: { flags: Flags; command: Command }): string {
  const { flags, command } = options
  const rows = [
    ...Object.values(flags).map((flag) => [
      `${flag.name} ${flag.kind === 'url' ? '<url>' : '<n>'}`,
      flag.default === undefined
        ? flag.description
        : `${flag.description} (default ${flag.default})`,
    ]),
    ['-h, --help', 'Show this help'],
  ]
  const width = Math.max(...rows.map(([left]) => left!.length))
  const lines = rows.map(
    ([left, right]) => `  ${left!.padEnd(width)}  ${right}`,
  )
  const notes = (command.notes ?? []).map((note) => `\n${note}\n`).join('')
  return `Usage: ${command.usage}\n\n${command.summary}\n\nOptions:\n${lines.join('\n')}\n${notes}`
}

/**
 * {@link parseArgs} for a program's `main`: on `--help` it prints the usage
 * on stdout, on a usage error the message and usage on stderr with exit code
 * 2, and in both cases returns `undefined` so the caller simply returns.
 *
 * @example
 * const args = parseCommandLine(process.argv.slice(2), { flags, command })
 * if (!args) return
 */
export function parseCommandLine<const flags extends Flags>(
  argv: readonly string[],
  options: { flags: flags; command: Command },
): parseArgs.ReturnType<flags> | undefined {
  let args: parseArgs.ReturnType<flags>
  try {
    args = parseArgs(argv, options)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`${error.message}\n\n${error.usage}`)
    process.exitCode = 2
    return undefined
  }
  if (args.help) {
    process.stdout.write(usage(options))
    return undefined
  }
  return args
}

function parseValue(flag: Flag, raw: string, text: string): number | string {
  if (flag.kind === 'url') return parseUrl(flag, raw, text)
  const [min, max, what] = ranges[flag.kind]
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(
      `${flag.name} must be ${what}: an integer from ${min} to ${max}, got ${JSON.stringify(raw)}.`,
      { usage: text },
    )
  return value
}

/**
 * Checks an absolute http(s) URL and returns it as typed: a dApp passes the
 * same string to its SDK. No fragment, since OAuth 2.0 (RFC 6749) forbids
 * one in a redirect URI.
 */
function parseUrl(flag: UrlFlag, raw: string, text: string): string {
  const url = URL.parse(raw)
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    raw.includes('#')
  )
    throw new UsageError(
      `${flag.name} must be an absolute http(s) URL without a fragment, got ${JSON.stringify(raw)}.`,
      { usage: text },
    )
  return raw
}

const ranges = {
  port: [1, 65_535, 'a TCP port'],
  portBase: [1, maxPortBase, 'a port base'],
  chainId: [1, Number.MAX_SAFE_INTEGER, 'a chain id'],
} as const satisfies Record<NumberKind, readonly [number, number, string]>

/** Thrown on invalid command-line arguments; carries the usage text. */
export class UsageError extends BaseError<undefined> {
  override readonly name = 'Cli.UsageError'
  /** The usage text of the command. */
  readonly usage: string
  constructor(message: string, options: { usage: string }) {
    super(message)
    this.usage = options.usage
  }
}
