/**
 * The indexer's control routes, for programs and pages on this machine
 * only (the server refuses `/dev/` to other origins):
 *
 * - `PUT /dev/indexer/verification-status` `{ chainName?, contractAddress,
 *   status }`: sets a collection's or token's verification status
 *   (`verified`, `unverified`, `spam`, `inactive`), as the platform's staff
 *   would; `chainName` defaults to the main chain;
 * - `GET /dev/indexer/verification-status[?chainName]`: the statuses set;
 * - `GET /dev/indexer/status`: each chain's indexed height and why its
 *   last pass failed, if it did.
 *
 * @packageDocumentation
 */
import type { Env, Hono } from 'hono'
import { isRecord, readJson } from '../api/http.js'
import type { IndexerChain } from './indexer.js'
import { answerRefusal, invalid, refuse } from './params.js'
import type { RouteDeps } from './routes.js'
import { type VerificationStatus, verificationStatuses } from './schema.js'

/** The control route of verification statuses. */
export const verificationControlPath = '/dev/indexer/verification-status'

/** The control route of the followers' progress. */
export const statusControlPath = '/dev/indexer/status'

/** Adds the control routes. */
export function controlRoutes<env extends Env>(
  app: Hono<env>,
  deps: RouteDeps,
): void {
  const { indexer } = deps
  const chainOf = (name: unknown): IndexerChain | undefined =>
    name === undefined
      ? indexer.chains[0]
      : typeof name === 'string'
        ? indexer.chainByName(name)
        : undefined

  app.put(verificationControlPath, async (c) => {
    const body = await readJson(c)
    const usage =
      'Expected { chainName?, contractAddress, status } (status: verified, unverified, spam or inactive).'
    if (!isRecord(body)) return answerRefusal(c, invalid('body', usage))
    const chain = chainOf(body.chainName)
    if (!chain)
      return answerRefusal(
        c,
        refuse(
          'notFound',
          `There is no chain named ${String(body.chainName)}.`,
        ),
      )
    const { contractAddress, status } = body
    if (
      typeof contractAddress !== 'string' ||
      !/^0x[0-9a-fA-F]{40}$/.test(contractAddress) ||
      !verificationStatuses.includes(status as VerificationStatus)
    )
      return answerRefusal(c, invalid('body', usage))
    try {
      indexer.setVerificationStatus(
        chain.chainId,
        contractAddress as `0x${string}`,
        status as VerificationStatus,
      )
    } catch (error) {
      return answerRefusal(
        c,
        refuse(
          'conflict',
          error instanceof Error ? error.message : 'Too many statuses.',
        ),
      )
    }
    return c.json({
      chainName: chain.name,
      contractAddress: contractAddress.toLowerCase(),
      status,
    })
  })

  app.get(verificationControlPath, (c) => {
    const name = c.req.query('chainName')
    const chains =
      name === undefined
        ? indexer.chains
        : indexer.chains.filter((chain) => chain.name === name)
    return c.json({
      statuses: chains.flatMap((chain) =>
        [...chain.state.statuses].map(([contractAddress, { status, at }]) => ({
          chainName: chain.name,
          contractAddress,
          status,
          at: at.toISOString(),
        })),
      ),
    })
  })

  app.get(statusControlPath, async (c) => {
    await indexer.sync()
    return c.json({
      chains: indexer.chains.map((chain) => ({
        chainName: chain.name,
        chainId: chain.chainId,
        height: chain.follower.height,
        error:
          chain.follower.lastError === undefined
            ? null
            : chain.follower.lastError instanceof Error
              ? chain.follower.lastError.message.split('\n')[0]
              : String(chain.follower.lastError),
      })),
    })
  })
}
