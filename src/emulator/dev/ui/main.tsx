/**
 * The emulator's UI: one page of panels over the sources the services
 * registered on the observation hub, kept current by the dev service's
 * server-sent events (`/ui/events`). Its actions go to `/ui/actions` with
 * the page's token; the scenario switches use the dev origin's
 * `/scenarios` routes.
 *
 * @packageDocumentation
 */
import { type ReactNode, StrictMode, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import type { DecodedCall } from '../decode.js'
import type {
  ActivityView,
  BlockView,
  LinkedView,
  MagicSessionView,
  MessageView,
  PassportSessionView,
  RelayerView,
  Scenario,
  UserView,
  VerdictView,
} from './views.js'

/** The sources' latest snapshots, by name. */
type Sources = { readonly [name: string]: unknown }

/** The page's token, which actions carry (see ../ui.ts). */
const token =
  document
    .querySelector('meta[name="emulator-ui-token"]')
    ?.getAttribute('content') ?? ''

/** Runs an action of a source; resolves to its error text, if any. */
async function act(
  source: string,
  action: string,
  input: unknown,
): Promise<string | undefined> {
  const response = await fetch('/ui/actions', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-emulator-ui-token': token,
    },
    body: JSON.stringify({ source, action, input }),
  })
  if (response.ok) return undefined
  const body = (await response.json().catch(() => ({}))) as { error?: string }
  return body.error ?? `The action failed (${response.status}).`
}

/** The sources, live from the event stream. */
function useSources(): { sources: Sources; live: boolean } {
  const [sources, setSources] = useState<Sources>({})
  const [live, setLive] = useState(false)
  useEffect(() => {
    const events = new EventSource('/ui/events')
    events.addEventListener('open', () => setLive(true))
    events.addEventListener('error', () => setLive(false))
    events.addEventListener('source', (event) => {
      const { name, data } = JSON.parse((event as MessageEvent).data) as {
        name: string
        data: unknown
      }
      setSources((current) => ({ ...current, [name]: data }))
    })
    return () => events.close()
  }, [])
  return { sources, live }
}

function App() {
  const { sources, live } = useSources()
  const [error, setError] = useState<string>()
  const run = (source: string, action: string, input: unknown) =>
    act(source, action, input).then(setError, (failure: unknown) =>
      setError(String(failure)),
    )
  const users = (sources.users ?? []) as readonly UserView[]
  const links = (sources.links ?? {}) as LinkedView
  return (
    <>
      <header>
        <h1>Emulator</h1>
        <span className={live ? 'live on' : 'live'} data-testid="ui-live">
          {live ? 'live' : 'connecting…'}
        </span>
        {error === undefined ? null : (
          <span className="error" data-testid="ui-error">
            {error}
          </span>
        )}
      </header>
      <main>
        <Users users={users} links={links} />
        <Sessions
          magic={(sources['magic.sessions'] ?? []) as MagicSessionView[]}
          passport={
            (sources['passport.sessions'] ?? []) as PassportSessionView[]
          }
          end={(source, id) => run(source, 'end', { id })}
        />
        <Mailbox messages={(sources.mailbox ?? []) as MessageView[]} />
        <Verdicts
          verdicts={(sources.verdicts ?? []) as VerdictView[]}
          settle={(id, decision) => run('verdicts', 'settle', { id, decision })}
        />
        <Relayer relayer={sources.relayer as RelayerView | undefined} />
        <Activity activity={sources.activity as ActivityView | undefined} />
        <Scenarios version={sources.scenarios} />
        <ChainPanel
          chain={
            sources.chain as
              | { chainId: number; blocks: readonly BlockView[] }
              | undefined
          }
        />
      </main>
    </>
  )
}

function Panel(props: {
  title: string
  id: string
  note?: ReactNode
  wide?: boolean
  children: ReactNode
}) {
  return (
    <section
      className={props.wide ? 'wide' : undefined}
      data-testid={`ui-panel-${props.id}`}
    >
      <h2>
        {props.title}
        {props.note === undefined ? null : <small>{props.note}</small>}
      </h2>
      {props.children}
    </section>
  )
}

function Empty(props: { children: ReactNode; id: string }) {
  return (
    <p className="empty" data-testid={`ui-empty-${props.id}`}>
      {props.children}
    </p>
  )
}

function Users(props: { users: readonly UserView[]; links: LinkedView }) {
  const { users, links } = props
  return (
    <Panel title="Users" id="users" note={`${users.length}`} wide>
      {users.length === 0 ? (
        <Empty id="users">No users yet: log in with either wallet.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>User</th>
              <th>Own key (iframe wallet)</th>
              <th>Game wallet</th>
              <th>Linked wallets</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id} data-testid="ui-user" data-user={user.id}>
                <td data-testid="ui-user-who">
                  {user.email ?? user.phoneNumber ?? (
                    <span title={user.issuer}>
                      custody key
                      {user.keyOf === undefined ? '' : ` of ${user.keyOf}`}
                    </span>
                  )}
                  {user.mfa ? ' (MFA)' : ''}
                </td>
                <td className="mono" data-testid="ui-user-address">
                  {user.address}
                </td>
                <td className="mono" data-testid="ui-user-game-wallet">
                  {user.passport.zkevmEthAddress ?? '—'}
                </td>
                <td className="mono" data-testid="ui-user-linked">
                  {(links[user.id] ?? []).map((link) => (
                    <div key={link.address}>
                      {link.address} <small>({link.type})</small>
                    </div>
                  ))}
                </td>
                <td>{time(user.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}

/** A session's End control, the same for both wallets. */
function EndButton(props: { onClick: () => void }) {
  return (
    <button
      type="button"
      className="end"
      data-testid="ui-session-end"
      onClick={props.onClick}
    >
      End
    </button>
  )
}

function Sessions(props: {
  magic: readonly MagicSessionView[]
  passport: readonly PassportSessionView[]
  end: (source: string, id: string) => void
}) {
  const { magic, passport, end } = props
  return (
    <Panel title="Live sessions" id="sessions">
      <h3>Iframe wallet</h3>
      {magic.length === 0 ? (
        <Empty id="magic-sessions">None.</Empty>
      ) : (
        <table>
          <tbody>
            {magic.map((session) => (
              <tr
                key={session.id}
                data-testid="ui-magic-session"
                data-session={session.id}
              >
                <td data-testid="ui-session-who">{session.who}</td>
                <td className="mono">{session.apiKey}</td>
                <td>until {time(session.expiresAt)}</td>
                <td>
                  <EndButton
                    onClick={() => end('magic.sessions', session.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Game wallet</h3>
      {passport.length === 0 ? (
        <Empty id="passport-sessions">None.</Empty>
      ) : (
        <table>
          <tbody>
            {passport.map((session) => (
              <tr
                key={session.id}
                data-testid="ui-passport-session"
                data-session={session.id}
              >
                <td data-testid="ui-session-who">{session.who}</td>
                <td>{session.clientId}</td>
                <td>
                  {session.refreshTokens} refresh token
                  {session.refreshTokens === 1 ? '' : 's'}
                </td>
                <td>
                  <EndButton
                    onClick={() => end('passport.sessions', session.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}

function Mailbox(props: { messages: readonly MessageView[] }) {
  const { messages } = props
  return (
    <Panel title="Mailbox" id="mailbox" note={`${messages.length}`}>
      {messages.length === 0 ? (
        <Empty id="mailbox">No messages yet.</Empty>
      ) : (
        <table>
          <tbody>
            {messages.slice(0, 30).map((message) => (
              <tr
                key={`${message.at}-${message.to}-${message.kind}`}
                data-testid="ui-mail"
              >
                <td>{time(message.at)}</td>
                <td data-testid="ui-mail-to">{message.to}</td>
                <td>{message.kind}</td>
                <td className="code" data-testid="ui-mail-code">
                  {message.code ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}

function Verdicts(props: {
  verdicts: readonly VerdictView[]
  settle: (id: string, decision: 'approve' | 'reject') => void
}) {
  const { verdicts, settle } = props
  const waiting = verdicts.filter((verdict) => verdict.state === 'pending')
  return (
    <Panel
      title="Guardian verdicts"
      id="verdicts"
      note={`${waiting.length} waiting`}
    >
      {verdicts.length === 0 ? (
        <Empty id="verdicts">Nothing evaluated yet.</Empty>
      ) : (
        <table>
          <tbody>
            {verdicts.slice(0, 30).map((verdict) => (
              <tr
                key={verdict.id}
                data-testid="ui-verdict"
                data-verdict={verdict.id}
              >
                <td>{verdict.kind}</td>
                <td className="mono">{short(verdict.wallet)}</td>
                <td
                  className={`status ${verdict.state}`}
                  data-testid="ui-verdict-state"
                >
                  {verdict.state}
                </td>
                <td>
                  {verdict.state === 'pending' ? (
                    <>
                      <button
                        type="button"
                        className="approve"
                        data-testid="ui-verdict-approve"
                        onClick={() => settle(verdict.id, 'approve')}
                      >
                        Approve
                      </button>{' '}
                      <button
                        type="button"
                        className="reject"
                        data-testid="ui-verdict-reject"
                        onClick={() => settle(verdict.id, 'reject')}
                      >
                        Reject
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}

function Relayer(props: { relayer: RelayerView | undefined }) {
  const transactions = props.relayer?.transactions ?? []
  return (
    <Panel
      title="Relayer"
      id="relayer"
      note={
        props.relayer
          ? `fee ${props.relayer.fee} wei · ${props.relayer.planned} outcomes planned`
          : undefined
      }
      wide
    >
      {transactions.length === 0 ? (
        <Empty id="relayer">No relayed transactions yet.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Status</th>
              <th>Wallet</th>
              <th>Calls</th>
              <th>Hash</th>
            </tr>
          </thead>
          <tbody>
            {transactions.map((transaction) => (
              <tr
                key={transaction.id}
                data-testid="ui-relayed"
                data-relayed={transaction.id}
              >
                <td>
                  <span
                    className={`status ${transaction.status}`}
                    data-testid="ui-relayed-status"
                  >
                    {transaction.status}
                  </span>
                  {transaction.statusMessage === undefined ? null : (
                    <div className="revert" data-testid="ui-relayed-message">
                      {transaction.statusMessage}
                    </div>
                  )}
                </td>
                <td className="mono">{short(transaction.wallet)}</td>
                <td data-testid="ui-relayed-calls">
                  {transaction.calls.map((call, index) => (
                    <Call
                      // The batch's order is the calls' identity.
                      // biome-ignore lint/suspicious/noArrayIndexKey: a batch never reorders
                      key={index}
                      call={call.decoded}
                    />
                  ))}
                </td>
                <td className="mono" data-testid="ui-relayed-hash">
                  {transaction.hash ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}

/** A decoded call, with a wallet batch's calls beneath it. */
function Call(props: { call: DecodedCall | undefined }) {
  const { call } = props
  if (!call) return null
  if (call.to === undefined)
    return (
      <div className="call" data-testid="ui-call">
        <span className="fn mono" data-testid="ui-call-function">
          new contract
        </span>
      </div>
    )
  const target = call.contract ?? short(call.to)
  const what =
    call.function !== undefined
      ? `${call.function}(${(call.args ?? []).join(', ')})`
      : call.selector !== undefined
        ? `call ${call.selector}`
        : 'transfer'
  return (
    <div className="call" data-testid="ui-call">
      <span className="mono">{target}</span>.
      <span className="fn mono" data-testid="ui-call-function">
        {what}
      </span>
      {call.value === '0' ? null : (
        <span className="mono"> · {call.value} wei</span>
      )}
      {call.calls === undefined ? null : (
        <ul>
          {call.calls.map((inner, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a batch never reorders
            <li key={index}>
              <Call call={inner} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function Activity(props: { activity: ActivityView | undefined }) {
  const rules = Object.entries(props.activity?.rules ?? {})
  const checks = props.activity?.checks ?? []
  return (
    <Panel title="Session activity" id="activity">
      {rules.length === 0 ? (
        <Empty id="activity-rules">No rules: checks are answered 404.</Empty>
      ) : (
        <ul>
          {rules.map(([clientId, rule]) => (
            <li key={clientId} data-testid="ui-activity-rule">
              {clientId}: {rule.functionName ?? '—'} on{' '}
              {rule.contractAddress ? short(rule.contractAddress) : '—'}, every{' '}
              {rule.delay ?? 0} s
            </li>
          ))}
        </ul>
      )}
      {checks.length === 0 ? (
        <Empty id="activity-checks">No checks yet.</Empty>
      ) : (
        <table>
          <tbody>
            {checks.slice(0, 20).map((check) => (
              <tr
                key={`${check.at}-${check.wallet}-${check.checkCount}`}
                data-testid="ui-activity-check"
              >
                <td>{time(check.at)}</td>
                <td className="mono">{short(check.wallet)}</td>
                <td>
                  check {check.checkCount} · send {check.sendCount}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}

/**
 * The scenario switches, read from `GET /scenarios` (again whenever the
 * hub says they changed) and set with `PUT /scenarios/:name`.
 */
function Scenarios(props: { version: unknown }) {
  const [list, setList] = useState<readonly Scenario[] | 'unavailable'>()
  const [error, setError] = useState<string>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on each change the hub announces
  useEffect(() => {
    let current = true
    fetch('/scenarios').then(
      async (response) => {
        if (!current) return
        if (response.status === 404) return setList('unavailable')
        if (!response.ok) return setError(`GET /scenarios: ${response.status}`)
        setList((await response.json()) as Scenario[])
      },
      (failure: unknown) => current && setError(String(failure)),
    )
    return () => {
      current = false
    }
  }, [props.version])
  const toggle = async (scenario: Scenario) => {
    const response = await fetch(
      `/scenarios/${encodeURIComponent(scenario.name)}`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ on: !scenario.on }),
      },
    )
    if (!response.ok) return setError(`PUT /scenarios: ${response.status}`)
    const updated = (await response.json()) as Scenario
    setList((current) =>
      Array.isArray(current)
        ? current.map((entry) =>
            entry.name === updated.name ? updated : entry,
          )
        : current,
    )
  }
  return (
    <Panel title="Scenarios" id="scenarios">
      {error === undefined ? null : <p className="error">{error}</p>}
      {list === 'unavailable' ? (
        <Empty id="scenarios">Not available in this emulator.</Empty>
      ) : list === undefined ? (
        <Empty id="scenarios-loading">Loading…</Empty>
      ) : (
        list.map((scenario) => (
          <label
            key={scenario.name}
            className="switch"
            data-testid="ui-scenario"
          >
            <input
              type="checkbox"
              checked={scenario.on}
              data-testid={`ui-scenario-${scenario.name}`}
              onChange={() => void toggle(scenario)}
            />
            <span>
              {scenario.title}
              <small>{scenario.effect}</small>
            </span>
          </label>
        ))
      )}
    </Panel>
  )
}

function ChainPanel(props: {
  chain: { chainId: number; blocks: readonly BlockView[] } | undefined
}) {
  const blocks = props.chain?.blocks ?? []
  return (
    <Panel
      title="Chain"
      id="chain"
      note={props.chain ? `chain ${props.chain.chainId}` : undefined}
      wide
    >
      {blocks.length === 0 ? (
        <Empty id="chain">Reading the latest blocks…</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Block</th>
              <th>Transaction</th>
              <th>Status</th>
              <th>Call</th>
            </tr>
          </thead>
          <tbody>
            {blocks.flatMap((block) =>
              block.transactions.length === 0
                ? [
                    <tr key={block.hash} data-testid="ui-block">
                      <td>{block.number}</td>
                      <td colSpan={3} className="empty">
                        {time(block.timestamp)} · no transactions
                      </td>
                    </tr>,
                  ]
                : block.transactions.map((tx) => (
                    <tr key={tx.hash} data-testid="ui-tx" data-hash={tx.hash}>
                      <td>{block.number}</td>
                      <td className="mono">
                        {short(tx.hash)}
                        <div>from {short(tx.from)}</div>
                      </td>
                      <td>
                        <span
                          className={`status ${tx.status}`}
                          data-testid="ui-tx-status"
                        >
                          {tx.status}
                        </span>
                        {tx.revert === undefined ? null : (
                          <div className="revert" data-testid="ui-tx-revert">
                            {tx.revert}
                          </div>
                        )}
                      </td>
                      <td data-testid="ui-tx-call">
                        <Call call={tx.call} />
                      </td>
                    </tr>
                  )),
            )}
          </tbody>
        </table>
      )}
    </Panel>
  )
}

function short(hex: string): string {
  return hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-4)}` : hex
}

function time(iso: string | undefined): string {
  return iso === undefined
    ? ''
    : iso
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
        .replace(/Z$/, '')
}

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
