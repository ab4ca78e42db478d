// The local runner's command (README "Local runner"): `npm run runner -- <command>`.
import { main } from './cli.ts'

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  },
)
