import { type ChildProcess, spawn } from 'node:child_process'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'

/** A child process started by {@link start}, read line by line. */
export type Spawned = {
  readonly child: ChildProcess
  /** Every stdout line read so far. */
  readonly lines: readonly string[]
  /** Everything written to stderr so far. */
  stderr(): string
  /** The next stdout line not yet taken; rejects after `timeout` ms. */
  nextLine(options?: { timeout?: number }): Promise<string>
  /** Resolves when the process exits; rejects after `timeout` ms. */
  exited(options?: { timeout?: number }): Promise<Exit>
  /** Kills the whole process group with SIGKILL, if still running. */
  kill(): void
}

/** How a process ended. */
export type Exit = { code: number | null; signal: NodeJS.Signals | null }

/**
 * Spawns a command in its own process group (so {@link Spawned.kill} reaches
 * its children too) with stdout split into lines.
 */
export function start(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Spawned {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? userEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  let taken = 0
  let stderr = ''
  let waiter: (() => void) | undefined
  let exit: Exit | undefined
  const exitWaiters: (() => void)[] = []

  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line)
    waiter?.()
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.on('exit', (code, signal) => {
    exit = { code, signal }
    for (const notify of exitWaiters.splice(0)) notify()
    waiter?.()
  })

  const describe = () =>
    `\n--- stdout ---\n${lines.join('\n')}\n--- stderr ---\n${stderr}`

  return {
    child,
    lines,
    stderr: () => stderr,
    nextLine({ timeout = 30_000 } = {}) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = undefined
          reject(new Error(`No stdout line within ${timeout} ms.${describe()}`))
        }, timeout)
        waiter = () => {
          if (taken < lines.length) {
            clearTimeout(timer)
            waiter = undefined
            resolve(lines[taken++]!)
          } else if (exit) {
            clearTimeout(timer)
            waiter = undefined
            reject(new Error(`Exited (${JSON.stringify(exit)}).${describe()}`))
          }
        }
        waiter()
      })
    },
    exited({ timeout = 30_000 } = {}) {
      return new Promise((resolve, reject) => {
        if (exit) return resolve(exit)
        const timer = setTimeout(
          () => reject(new Error(`Still running after ${timeout} ms.`)),
          timeout,
        )
        exitWaiters.push(() => {
          clearTimeout(timer)
          resolve(exit!)
        })
      })
    },
    kill() {
      if (child.pid === undefined) return
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // The group is gone already.
      }
    },
  }
}

/** Tells whether something accepts TCP connections on `host:port`. */
export function canConnect(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Node's flags to run TypeScript entry points with this Node, as `npm start`
 * and `npm run emulator` do: tsx as a loader in the one process. Not tsx's
 * CLI, which runs the script in a child and, when the child does not report
 * a relayed SIGINT or SIGTERM within 30 ms (a loaded machine), kills it with
 * SIGKILL and exits 130 or 143, so that a clean shutdown could not be seen.
 */
export const tsx = ['--import', 'tsx'] as const

/**
 * This process's environment without what Vitest adds (`NODE_ENV=test`,
 * `VITEST*`), so that a child runs as it does for a person.
 */
export function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => key !== 'NODE_ENV' && !key.startsWith('VITEST'),
    ),
  )
}
