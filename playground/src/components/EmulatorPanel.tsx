import type { Info } from '../emulator.js'
import { ChainFacts } from './ChainFacts.js'

/**
 * The emulator's chain (live) and where its pieces are: RPC, dev mailbox,
 * contracts.
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
            {info.mailbox}/view
          </a>
        </dd>
      </dl>
      <h3>Contracts</h3>
      <table className="contracts">
        <tbody>
          {Object.entries(info.contracts).map(([name, address]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>
                <code>{address}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}
