// Types of cleanup.mjs for the TypeScript benchmarks (bench-planner.ts).
export const cleanups: (() => unknown)[]
export function tempDir(prefix: string): string
export function runBenchmark(name: string, main: () => Promise<number>): Promise<never>
