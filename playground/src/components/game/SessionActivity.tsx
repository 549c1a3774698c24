import type { ZkEvmProvider } from 'embedded-wallets/passport'
import { type FormEvent, useCallback, useEffect, useState } from 'react'
import type { Info } from '../../emulator.js'
import {
  getSessionActivity,
  putSessionActivity,
  type SessionActivityState,
} from '../../passport/devControls.js'
import { messageOf, shortHex } from '../../ui/format.js'

/**
 * Contracts of the emulator the background call can go to, each with real
 * functions of no argument (the session-activity call has no arguments):
 * the test tokens' OpenZeppelin getters.
 */
const targets = {
  erc20: ['totalSupply', 'name', 'symbol', 'decimals'],
  testErc721: ['name', 'symbol'],
} as const

type Target = keyof typeof targets

/**
 * Session activity: the game (this playground's client id) asks, through
 * the platform API, that its players' wallets send a background call now
 * and then. Here: set the rule the emulated API answers (a dev control),
 * start the connected wallet's loop (`im_addSessionActivity`), and read the
 * checks the API received.
 */
export function SessionActivity(props: {
  info: Info
  /** The connected game wallet's provider, if it is connected. */
  provider: ZkEvmProvider | undefined
}) {
  const { info, provider } = props
  const { apiUrl, clientId } = info.passport
  const [target, setTarget] = useState<Target>('erc20')
  const [functionName, setFunctionName] = useState<string>('totalSupply')
  const [delay, setDelay] = useState('5')
  const [state, setState] = useState<SessionActivityState>()
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState<string>()

  const read = useCallback(async () => {
    try {
      setState(await getSessionActivity(apiUrl, clientId))
    } catch (error) {
      setProblem(messageOf(error))
    }
  }, [apiUrl, clientId])

  useEffect(() => {
    void read()
  }, [read])

  const act = async (what: string, action: () => Promise<unknown>) => {
    setBusy(what)
    setProblem(undefined)
    try {
      await action()
      await read()
    } catch (error) {
      setProblem(`${what}: ${messageOf(error)}`)
    } finally {
      setBusy(undefined)
    }
  }

  const seconds = Number(delay)
  const delayValid =
    delay.trim() !== '' &&
    Number.isFinite(seconds) &&
    seconds >= 0 &&
    seconds <= 86_400

  const setRule = (event: FormEvent) => {
    event.preventDefault()
    if (!delayValid) return
    void act('Setting the rule', () =>
      putSessionActivity(apiUrl, clientId, {
        contractAddress: info.contracts[target],
        functionName,
        delay: seconds,
      }),
    )
  }

  const rule = state?.rules[clientId]
  const checks = state?.checks ?? []
  return (
    <form className="stack" onSubmit={setRule} noValidate>
      <div className="row">
        <div className="field">
          <label htmlFor="game-activity-contract">Contract</label>
          <select
            id="game-activity-contract"
            data-testid="game-activity-contract"
            value={target}
            onChange={(event) => {
              const next = event.target.value as Target
              setTarget(next)
              setFunctionName(targets[next][0])
            }}
          >
            <option value="erc20">
              TestERC20 ({shortHex(info.contracts.erc20)})
            </option>
            <option value="testErc721">
              TestERC721 ({shortHex(info.contracts.testErc721)})
            </option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="game-activity-function">Function</label>
          <select
            id="game-activity-function"
            data-testid="game-activity-function"
            value={functionName}
            onChange={(event) => setFunctionName(event.target.value)}
          >
            {targets[target].map((name) => (
              <option key={name} value={name}>
                {name}()
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="game-activity-delay">Delay (s)</label>
          <input
            id="game-activity-delay"
            data-testid="game-activity-delay"
            inputMode="numeric"
            value={delay}
            aria-invalid={!delayValid}
            onChange={(event) => setDelay(event.target.value)}
          />
        </div>
      </div>
      <div className="row">
        <button
          type="submit"
          disabled={busy !== undefined || !delayValid}
          data-testid="game-activity-set"
        >
          Set the rule
        </button>
        <button
          type="button"
          disabled={busy !== undefined || !rule}
          data-testid="game-activity-remove"
          onClick={() =>
            void act('Removing the rule', () =>
              putSessionActivity(apiUrl, clientId, null),
            )
          }
        >
          Remove the rule
        </button>
        <button
          type="button"
          disabled={busy !== undefined || !provider}
          data-testid="game-activity-add"
          onClick={() =>
            void act('im_addSessionActivity', async () =>
              provider?.request({
                method: 'im_addSessionActivity',
              } as never),
            )
          }
        >
          Start (im_addSessionActivity)
        </button>
        <button
          type="button"
          disabled={busy !== undefined}
          data-testid="game-activity-refresh"
          onClick={() => void act('Reading the checks', read)}
        >
          Read the checks
        </button>
      </div>
      {problem && (
        <p className="error" data-testid="game-activity-error">
          {problem}
        </p>
      )}
      <p data-testid="game-activity-rule">
        {rule
          ? `Rule for ${clientId}: ${rule.functionName ? `${rule.functionName}() on ${shortHex(rule.contractAddress ?? '')}` : 'no call'}, every ${rule.delay ?? 0} s.`
          : `No rule for ${clientId}: the API answers its checks 404.`}
      </p>
      {checks.length === 0 ? (
        <p className="muted" data-testid="game-activity-no-checks">
          No checks received yet.
        </p>
      ) : (
        <ol data-testid="game-activity-checks">
          {checks
            .slice(-10)
            .reverse()
            .map((check) => (
              <li key={`${check.at}:${check.checkCount}:${check.sendCount}`}>
                <time dateTime={check.at}>
                  {new Date(check.at).toLocaleTimeString()}
                </time>{' '}
                {shortHex(check.wallet)}: checkCount {check.checkCount},
                sendCount {check.sendCount}
              </li>
            ))}
        </ol>
      )}
    </form>
  )
}
