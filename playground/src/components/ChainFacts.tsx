import { useBlockNumber, useChainId } from 'wagmi'

/**
 * The local chain's id and its live block number, as rows of a `<dl>`
 * (the emulator panel's).
 */
export function ChainFacts() {
  const chainId = useChainId()
  const blockNumber = useBlockNumber({ watch: true })
  return (
    <>
      <dt>Chain id</dt>
      <dd className="value" data-testid="chain-id">
        {chainId}
      </dd>
      <dt>Block number</dt>
      <dd className="value" data-testid="block-number">
        {blockNumber.data === undefined ? '…' : blockNumber.data.toString()}
      </dd>
      {blockNumber.error ? (
        <>
          <dt>RPC error</dt>
          <dd className="error" data-testid="block-number-error">
            {blockNumber.error.message}
          </dd>
        </>
      ) : null}
    </>
  )
}
