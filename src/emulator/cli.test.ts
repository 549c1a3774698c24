import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  emulatorCommand,
  emulatorFlags,
  parseArgs,
  parseCommandLine,
  UsageError,
  usage,
} from './cli.js'
import { slots } from './ports.js'

const emulatorUsage = usage({ flags: emulatorFlags, command: emulatorCommand })

const defaultUris = {
  redirectUri: 'http://localhost:5173/passport/redirect',
  logoutRedirectUri: 'http://localhost:5173/passport/logout',
}

function usageError(argv: readonly string[]): UsageError {
  try {
    parseArgs(argv)
  } catch (error) {
    if (error instanceof UsageError) return error
    throw error
  }
  throw new Error(`parseArgs(${JSON.stringify(argv)}) did not throw`)
}

describe('parseArgs', () => {
  test('default: no arguments give the defaults', () => {
    expect(parseArgs([])).toEqual({
      help: false,
      portBase: 4400,
      anvilPort: 8545,
      chainId: 31337,
      ...defaultUris,
    })
  })

  test('param: flags with separate values', () => {
    expect(
      parseArgs([
        '--port-base',
        '5000',
        '--anvil-port',
        '9545',
        '--chain-id',
        '1337',
      ]),
    ).toEqual({
      help: false,
      portBase: 5000,
      anvilPort: 9545,
      chainId: 1337,
      ...defaultUris,
    })
  })

  test('param: flags with = values', () => {
    expect(parseArgs(['--anvil-port=65535', '--port-base=1'])).toEqual({
      help: false,
      portBase: 1,
      anvilPort: 65_535,
      chainId: 31337,
      ...defaultUris,
    })
  })

  test('param: --help and -h', () => {
    expect(parseArgs(['--help']).help).toBe(true)
    expect(parseArgs(['--chain-id', '5', '-h'])).toEqual({
      help: true,
      portBase: 4400,
      anvilPort: 8545,
      chainId: 5,
      ...defaultUris,
    })
  })

  test('param: extra flags', () => {
    const flags = {
      ...emulatorFlags,
      playgroundPort: {
        name: '--playground-port',
        default: 5173,
        kind: 'port',
        description: 'Port of the playground',
      },
    } as const
    const command = { usage: 'start [options]', summary: 'Starts.' }
    expect(parseArgs([], { flags, command })).toEqual({
      help: false,
      portBase: 4400,
      anvilPort: 8545,
      chainId: 31337,
      ...defaultUris,
      playgroundPort: 5173,
    })
    expect(
      parseArgs(['--playground-port', '6000'], { flags, command })
        .playgroundPort,
    ).toBe(6000)
  })

  test('param: the game wallet pages, as separate values and with =', () => {
    expect(
      parseArgs([
        '--redirect-uri',
        'http://localhost:3000/callback?from=popup',
        '--logout-redirect-uri=https://127.0.0.1:8443/',
      ]),
    ).toEqual({
      help: false,
      portBase: 4400,
      anvilPort: 8545,
      chainId: 31337,
      redirectUri: 'http://localhost:3000/callback?from=popup',
      logoutRedirectUri: 'https://127.0.0.1:8443/',
    })
  })

  test('behavior: a URL comes back exactly as typed, not normalised', () => {
    expect(
      parseArgs(['--redirect-uri=HTTP://LOCALHOST:3000']).redirectUri,
    ).toBe('HTTP://LOCALHOST:3000')
  })

  test('param: a URL flag without a default is undefined when absent', () => {
    const flags = {
      callback: {
        name: '--callback',
        default: undefined,
        kind: 'url',
        description: 'Where to go back to (default: the app)',
      },
    } as const
    const command = { usage: 'start [options]', summary: 'Starts.' }
    expect(parseArgs([], { flags, command })).toEqual({
      help: false,
      callback: undefined,
    })
    expect(
      parseArgs(['--callback', 'http://[::1]:1/x'], { flags, command })
        .callback,
    ).toBe('http://[::1]:1/x')
    expect(usage({ flags, command })).toContain(
      '  --callback <url>  Where to go back to (default: the app)\n',
    )
  })

  test('error: a URL flag given something other than an absolute http(s) URL', () => {
    for (const value of [
      '',
      'localhost:3000/callback',
      '/passport/redirect',
      'ftp://localhost/x',
      'javascript:alert(1)',
      'http://localhost:3000/callback#done',
      'http://',
    ])
      expect(usageError(['--redirect-uri', value]).message).toBe(
        `--redirect-uri must be an absolute http(s) URL without a fragment, got ${JSON.stringify(value)}.`,
      )
    expect(usageError(['--logout-redirect-uri=nope']).message).toBe(
      '--logout-redirect-uri must be an absolute http(s) URL without a fragment, got "nope".',
    )
  })

  test('error: a URL flag without its value', () => {
    expect(usageError(['--redirect-uri']).message).toBe(
      '--redirect-uri needs a value.',
    )
  })

  test('behavior: the last of a repeated flag wins', () => {
    expect(
      parseArgs(['--anvil-port', '1', '--anvil-port', '2']).anvilPort,
    ).toBe(2)
  })

  test('error: unknown flag', () => {
    const error = usageError(['--port', '1'])
    expect(error.name).toBe('Cli.UsageError')
    expect(error.message).toBe('Unknown argument --port.')
    expect(error.usage).toBe(emulatorUsage)
  })

  test('error: positional argument', () => {
    expect(usageError(['emulator']).message).toBe('Unknown argument emulator.')
  })

  test('error: missing value', () => {
    expect(usageError(['--anvil-port']).message).toBe(
      '--anvil-port needs a value.',
    )
    expect(usageError(['--anvil-port', '--chain-id', '1']).message).toBe(
      '--anvil-port needs a value.',
    )
  })

  test('error: ports outside 1..65535 or not integers', () => {
    expect(usageError(['--anvil-port', '0']).message).toBe(
      '--anvil-port must be a TCP port: an integer from 1 to 65535, got "0".',
    )
    expect(usageError(['--anvil-port=65536']).message).toBe(
      '--anvil-port must be a TCP port: an integer from 1 to 65535, got "65536".',
    )
    for (const value of ['-1', '85.5', '1e3', '0x10', 'abc', ''])
      expect(usageError([`--anvil-port=${value}`]).message).toBe(
        `--anvil-port must be a TCP port: an integer from 1 to 65535, got ${JSON.stringify(value)}.`,
      )
  })

  test('error: a port base that leaves no room for the services', () => {
    expect(usageError(['--port-base', '65528']).message).toBe(
      '--port-base must be a port base: an integer from 1 to 65527, got "65528".',
    )
  })

  test('error: chain id zero', () => {
    expect(usageError(['--chain-id', '0']).message).toBe(
      `--chain-id must be a chain id: an integer from 1 to ${Number.MAX_SAFE_INTEGER}, got "0".`,
    )
  })
})

describe('usage', () => {
  test('behavior: --port-base counts the ports that follow from the slots', () => {
    expect(emulatorFlags.portBase.description).toBe(
      `Port of the dev mailbox; the other services take the next ${slots.length - 1} ports`,
    )
  })

  test('default: lists every flag with its default', () => {
    expect(emulatorUsage).toMatchInlineSnapshot(`
      "Usage: embedded-wallets emulator [options]

      Starts Anvil, deploys the contracts, starts the emulated services, prints one JSON line describing them on stdout, and runs until Ctrl-C.

      Options:
        --port-base <n>              Port of the dev mailbox; the other services take the next 8 ports (default 4400)
        --anvil-port <n>             Port of the Anvil JSON-RPC node (default 8545)
        --chain-id <n>               Chain id of the local chain (default 31337)
        --redirect-uri <url>         Game wallet login callback page (passport.redirectUri): the login popup lands there too, so that page must call passport.loginCallback(); loopback http URLs only (default http://localhost:5173/passport/redirect)
        --logout-redirect-uri <url>  Game wallet logout page (passport.logoutRedirectUri); loopback http URLs only (default http://localhost:5173/passport/logout)
        -h, --help                   Show this help

      Your own app: name its pages with --redirect-uri and --logout-redirect-uri (any loopback http port); the JSON line then prints them as passport.redirectUri and passport.logoutRedirectUri for your game wallet's config. The login popup lands on redirectUri too: that page must create the same Passport and call passport.loginCallback().

      The game wallet's overrides: pass the JSON line's passport.overrides whole (this package's Passport and the published @imtbl/passport take it unchanged). The complete config, the callback page and the published SDK's extra options are in this package's README.md, section "The game wallet (sign-in)".

      The iframe wallet: new Magic(magic.apiKey, { endpoint: magic.endpoint }). Login codes and links land in the dev mailbox: GET <mailbox>?to=<email or phone>.
      "
    `)
  })
})

describe('the emulator help', () => {
  test('behavior: answers what a developer wiring their own app had to guess: their pages, loginCallback and where the full overrides example is', () => {
    const help = emulatorUsage.slice(emulatorUsage.indexOf('  -h, --help'))
    // Their own pages, by flag, and where the JSON line prints them.
    expect(help).toContain(
      'name its pages with --redirect-uri and --logout-redirect-uri (any loopback http port); the JSON line then prints them as passport.redirectUri and passport.logoutRedirectUri',
    )
    // The popup lands on redirectUri, which must call loginCallback().
    expect(help).toContain(
      'The login popup lands on redirectUri too: that page must create the same Passport and call passport.loginCallback().',
    )
    // The overrides: whole from the JSON line, the full example in the
    // README the package ships (not a playground file it leaves out).
    expect(help).toContain(
      "pass the JSON line's passport.overrides whole (this package's Passport and the published @imtbl/passport take it unchanged)",
    )
    expect(help).toContain(
      'in this package\'s README.md, section "The game wallet (sign-in)".',
    )
    expect(help).not.toContain('playground/')
  })

  test('behavior: the README section the help points at holds the full config, the callback page and the overrides', () => {
    const readme = readFileSync(
      new URL('../../README.md', import.meta.url),
      'utf8',
    )
    const start = readme.indexOf('\n## The game wallet (sign-in)\n')
    expect(start).toBeGreaterThan(0)
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1))
    for (const needed of [
      'overrides: info.passport.overrides',
      'redirectUri: info.passport.redirectUri',
      'logoutRedirectUri: info.passport.logoutRedirectUri',
      'await passport.loginCallback()',
      "import { Passport } from '@imtbl/passport'",
      'magicPublishableApiKey:',
      'zkEvmRpcUrl:',
    ])
      expect(section).toContain(needed)
  })
})

describe('parseCommandLine', () => {
  const options = { flags: emulatorFlags, command: emulatorCommand }

  afterEach(() => {
    vi.restoreAllMocks()
    process.exitCode = undefined
  })

  test('default: returns the parsed flags and prints nothing', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockReturnValue(true)
    expect(parseCommandLine(['--anvil-port', '9000'], options)).toEqual(
      parseArgs(['--anvil-port', '9000']),
    )
    expect(stdout).not.toHaveBeenCalled()
  })

  test('behavior: --help prints the usage on stdout and returns nothing', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockReturnValue(true)
    expect(parseCommandLine(['--help'], options)).toBeUndefined()
    expect(stdout).toHaveBeenCalledWith(emulatorUsage)
    expect(process.exitCode).toBeUndefined()
  })

  test('error: a bad flag prints message and usage on stderr, exit code 2', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true)
    expect(parseCommandLine(['--nope'], options)).toBeUndefined()
    expect(stderr).toHaveBeenCalledWith(
      `${usageError(['--nope']).message}\n\n${emulatorUsage}`,
    )
    expect(process.exitCode).toBe(2)
  })
})
