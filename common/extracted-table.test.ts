import { describe, expect, it } from 'vitest'
import { createExtractedTable } from './extracted-table.ts'

describe('the extracted table', () => {
  it('lines columns up by row: the i-th value of each', () => {
    const table = createExtractedTable()
    table.add('name', ['Lamp', 'Chair'])
    table.add('price', ['$12', '$40'])
    expect(table.rows()).toEqual([
      { name: 'Lamp', price: '$12' },
      { name: 'Chair', price: '$40' },
    ])
  })

  it('keeps records whole: a missing part is an empty cell, and records start below everything of their columns', () => {
    const table = createExtractedTable()
    table.add('name', ['Earlier'])
    table.addRecords(['name', 'price'], [{ name: 'Lamp', price: '$12' }, { name: 'Desk' }, { name: 'Chair', price: '$40' }])
    table.addRecords(['name', 'price'], [{ name: 'Sofa', price: '$300' }])
    expect(table.rows()).toEqual([
      { name: 'Earlier', price: null },
      { name: 'Lamp', price: '$12' },
      { name: 'Desk', price: null },
      { name: 'Chair', price: '$40' },
      { name: 'Sofa', price: '$300' },
    ])
  })

  it('says what was added since a mark: the fields, the first rows and how many', () => {
    const table = createExtractedTable()
    table.add('name', ['Ada'])
    const mark = table.mark()
    expect(table.since(mark, 2)).toBeNull()
    table.add('name', ['Grace', 'Linus', 'Ken'])
    table.add('price', ['3'])
    expect(table.since(mark, 2)).toEqual({
      fields: ['name', 'price'],
      rows: [
        { name: 'Grace', price: '3' },
        { name: 'Linus', price: null },
      ],
      total: 3,
    })
  })

  it('leaves out the empty cells records start below, and cuts long values', async () => {
    const table = createExtractedTable()
    table.add('name', ['Ada', 'Grace'])
    const mark = table.mark()
    table.addRecords(['title', 'price'], [{ title: 'x'.repeat(3000), price: '3' }])
    const added = table.since(mark, 3)
    expect(added).toMatchObject({ fields: ['title', 'price'], total: 1 })
    expect(added?.rows[0]?.price).toBe('3')
    expect(added?.rows[0]?.title).toHaveLength(2000)
  })
})
