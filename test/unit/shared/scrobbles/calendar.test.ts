import { expect } from 'chai';
import { dayOf, hourOf, weekdayOfDay, windowStart } from '../../../../shared/scrobbles/calendar.ts';

const reference = Date.parse('2025-03-10T12:00:00Z') / 1000;

describe('scrobble calendar', () => {
  it('given a Monday 10:30 UTC, then weekday 0 and hour 10', () => {
    const uts = Date.parse('2025-03-10T10:30:00Z') / 1000;
    expect(weekdayOfDay(dayOf(uts))).to.equal(0);
    expect(hourOf(uts)).to.equal(10);
  });
  it('given a Sunday 23:59 UTC, then weekday 6 and hour 23', () => {
    const uts = Date.parse('2025-03-16T23:59:59Z') / 1000;
    expect(weekdayOfDay(dayOf(uts))).to.equal(6);
    expect(hourOf(uts)).to.equal(23);
  });
  it('given a window of zero, negative or no days, then it is all time', () => {
    expect(windowStart(undefined, reference)).to.equal(null);
    expect(windowStart(0, reference)).to.equal(null);
    expect(windowStart(-1, reference)).to.equal(null);
    expect(windowStart(2, reference)).to.equal(reference - 2 * 86_400);
    expect(windowStart(100_000, reference), 'a window reaching before 1970 starts at the epoch').to.equal(0);
  });
});

describe('scrobble months', () => {
  it('given days in January 1970 and March 2025, then months since 1970-01 and back', async () => {
    const { monthOfDay, monthStartDay, isoMonthOf } = await import('../../../../shared/scrobbles/calendar.ts');
    expect(monthOfDay(0)).to.equal(0);
    const day = dayOf(Date.parse('2025-03-31T23:00:00Z') / 1000);
    expect(isoMonthOf(monthOfDay(day))).to.equal('2025-03');
    expect(monthStartDay(monthOfDay(day))).to.equal(dayOf(Date.parse('2025-03-01T00:00:00Z') / 1000));
    expect(monthStartDay(monthOfDay(day) + 1)).to.equal(dayOf(Date.parse('2025-04-01T00:00:00Z') / 1000));
  });
});
