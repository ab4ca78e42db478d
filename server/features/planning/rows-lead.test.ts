import { describe, expect, it } from 'vitest'
import { rowsLead } from './rows-lead.ts'

describe('rowsLead', () => {
  it('reads "for each row" and its ways of saying it, and leaves the task', () => {
    expect(rowsLead('For each row, open the form and type "{{row.name}}" into Name')).toEqual({
      task: 'open the form and type "{{row.name}}" into Name',
      eachRow: true,
    })
    expect(rowsLead('for every line of the CSV file: click Add')).toEqual({ task: 'click Add', eachRow: true })
    expect(rowsLead('For each entry in my spreadsheet click Add')).toEqual({ task: 'click Add', eachRow: true })
  })

  it('leaves other tasks, and a lead with nothing after it, alone', () => {
    expect(rowsLead('Click each row')).toEqual({ task: 'Click each row', eachRow: false })
    expect(rowsLead('For each product, extract the price')).toEqual({ task: 'For each product, extract the price', eachRow: false })
    expect(rowsLead('For each row')).toEqual({ task: 'For each row', eachRow: false })
  })
})
