import { describe, expect, test } from 'vitest'
import { run } from '../../bench/run.js'

/**
 * A small run of `npm run bench` (its `--smoke` mode): it completes against
 * a real emulator in Chromium, and every row has both sides, with finite
 * positive numbers. No number is held to a threshold here: timings are the
 * benchmark's to judge, never a test's.
 */
describe('npm run bench --smoke', () => {
  test('behavior: runs every row, each with ours and the published SDK (or a baseline) measured', async () => {
    const report = await run({ smoke: true })

    expect(report.mode).toBe('smoke')
    expect(report.rows.map((row) => row.id)).toEqual([
      'latency.instant.sequential',
      'latency.instant.parallel',
      'latency.instant-session.sequential',
      'latency.instant-session.parallel',
      'latency.emulator.sequential',
      'latency.emulator.parallel',
      'ready.cold',
      'ready.warm',
      'memory.instant.heap',
      'game.send.eoa',
      'game.send.on-demand',
      'game.send.on-demand-published',
      'game.send.bridge',
      'game.send.published',
      'game.personalSign',
      'game.reads.parallel',
      'game.reads.parallel-batched',
      'game.reads.published',
      'size.magic.rolldown',
      'size.magic.esbuild',
    ])
    expect(report.machine.chromium).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
    expect(report.machine.cpus).toBeGreaterThan(0)
    const positive = (value: number) =>
      expect(Number.isFinite(value) && value > 0).toBe(true)
    // The game wallet's rows compare with the published SDK or a baseline.
    const theirs: Record<string, RegExp> = {
      'game.send.eoa': /^EOA send \(viem wallet client, local key\)$/,
      'game.send.on-demand': /^EOA send \(viem wallet client, local key\)$/,
      'game.send.on-demand-published': /^@imtbl\/passport 2\.24\.8$/,
      'game.send.bridge': /^EOA send \(viem wallet client, local key\)$/,
      'game.send.published': /^@imtbl\/passport 2\.24\.8$/,
      'game.personalSign': /^@imtbl\/passport 2\.24\.8$/,
      'game.reads.parallel': /^viem http transport to the node$/,
      'game.reads.parallel-batched':
        /^viem http transport to the node, `batch: true`$/,
      'game.reads.published': /^@imtbl\/passport 2\.24\.8$/,
    }
    const samples: Record<string, number | undefined> = {
      'game.send.eoa': report.iterations.sends,
      'game.send.on-demand': report.iterations.sends,
      'game.send.on-demand-published': report.iterations.sends,
      'game.send.bridge': report.iterations.sends,
      'game.send.published': report.iterations.sends,
      'game.personalSign': report.iterations.signs,
      'game.reads.parallel': report.iterations.readRounds,
      'game.reads.parallel-batched': report.iterations.readRounds,
      'game.reads.published': report.iterations.readRounds,
    }
    for (const row of report.rows) {
      const game = row.group === 'game-wallet'
      expect(row.sides.map((side) => side.role)).toEqual(
        row.group === 'size' || game
          ? ['ours', 'theirs']
          : ['ours', 'theirs', 'floor'],
      )
      expect(row.sides[0]?.name).toMatch(/^embedded-wallets/)
      expect(row.sides[1]?.name).toMatch(
        theirs[row.id] ?? /^magic-sdk 33\.13\.0$/,
      )
      positive(row.ratio)
      for (const side of row.sides) {
        positive(side.value)
        if (row.unit === 'ms') {
          const { stat } = side
          expect(stat?.n).toBe(
            game
              ? samples[row.id]
              : row.id.endsWith('.sequential')
                ? report.iterations.sequential
                : row.id.endsWith('.parallel')
                  ? report.iterations.rounds
                  : report.iterations.ready,
          )
          // A single sample may read 0: the page's clock ticks in 100 µs
          // steps, longer than a bare postMessage round trip.
          for (const value of Object.values(stat ?? {}))
            expect(Number.isFinite(value) && value >= 0).toBe(true)
          expect(stat?.max).toBeGreaterThanOrEqual(stat?.min ?? Number.NaN)
        } else if (row.group === 'memory') {
          positive(side.detail?.baseline ?? Number.NaN)
          expect(side.detail?.retained).toBe(
            side.value - (side.detail?.baseline ?? Number.NaN),
          )
        } else {
          positive(side.detail?.total ?? Number.NaN)
          expect(side.detail?.total).toBeGreaterThanOrEqual(side.value)
        }
      }
    }
  })
})
