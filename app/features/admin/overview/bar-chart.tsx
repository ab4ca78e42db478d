import { Bar, BarChart as Chart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts'

export interface ChartSeries {
  key: string
  label: string
  /** A CSS colour: one of the --chart-N tokens. */
  color: string
}

const axis = { tickLine: false, axisLine: false, fontSize: 12, stroke: 'var(--muted-foreground)' } as const

/**
 * Bars, stacked when there are several series: a day a bar (or a plan a row, `across`). Drawn in
 * the browser only; the figures beside it are the page's text for screen readers and without JavaScript.
 */
export default function BarChart({
  rows,
  category,
  series,
  across = false,
  height,
}: {
  rows: object[]
  category: string
  series: ChartSeries[]
  across?: boolean
  height: number
}) {
  return (
    <Chart
      responsive
      accessibilityLayer={false}
      data={rows}
      layout={across ? 'vertical' : 'horizontal'}
      style={{ width: '100%', height }}
      margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
    >
      <CartesianGrid vertical={across} horizontal={!across} stroke="var(--border)" />
      {across ? (
        <>
          <XAxis type="number" allowDecimals={false} {...axis} />
          <YAxis type="category" dataKey={category} width={96} {...axis} />
        </>
      ) : (
        <>
          <XAxis dataKey={category} interval="preserveStartEnd" minTickGap={24} {...axis} />
          <YAxis allowDecimals={false} width={44} {...axis} />
        </>
      )}
      <Tooltip
        cursor={{ fill: 'var(--muted)' }}
        contentStyle={{
          background: 'var(--card)',
          border: '1px solid var(--border)',
          borderRadius: 8,
          fontSize: 12,
          color: 'var(--foreground)',
        }}
      />
      {series.map((item) => (
        <Bar key={item.key} dataKey={item.key} name={item.label} stackId="one" fill={item.color} isAnimationActive={false} />
      ))}
    </Chart>
  )
}
