// Types of table.mjs for the TypeScript benchmarks (bench-planner.ts).
export function table(headers: string[], rows: (string | number | null | undefined)[][]): void
