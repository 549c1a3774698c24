import type { Info } from '../emulator.js'
import { LongValue } from '../ui/LongValue.js'
import { ChainFacts } from './ChainFacts.js'

/**
 * The emulator's chain (live) and where its pieces are: RPC, dev mailbox,
 * the emulator's UI, contracts.
 */
export function EmulatorPanel(props: { info: Info }) {
  const { info } = props
  return (
    <>
      <dl className="facts">
        <ChainFacts />
        <dt>RPC</dt>
        <dd>
          <code data-testid="rpc-url">{info.rpcUrl}</code>
        </dd>
        <dt>Dev mailbox</dt>
        <dd>
          <a
            href={`${info.mailbox}/view`}
            target="_blank"
            rel="noreferrer"
            data-testid="mailbox-link"
          >
            {info.mailbox}/view ↗
          </a>
        </dd>
        <dt>Emulator UI</dt>
        <dd>
          <a href={info.ui} target="_blank" rel="noreferrer">
            {info.ui} ↗
          </a>
        </dd>
      </dl>
      <h4>Contracts</h4>
      <dl className="facts contracts" data-testid="contracts">
        {Object.entries(info.contracts).map(([name, address]) => (
          <div key={name} className="fact-row">
            <dt>{name}</dt>
            <dd>
              <LongValue value={address} testId={`contract-${name}`} />
            </dd>
          </div>
        ))}
      </dl>
    </>
  )
}
