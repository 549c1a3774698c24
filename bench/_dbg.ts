import { run } from './run.js'
const report = await run({ smoke: true, only: ['game-wallet'] })
for (const row of report.rows)
  for (const side of row.sides)
    if (side.detail)
      console.log(row.id, side.name, JSON.stringify(side.detail, null, 1))
