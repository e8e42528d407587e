import { expect } from 'chai';
import { SERVICE_START_UTS, invalidKind } from '../../../../shared/scrobbles/invalid.ts';
import { dayOf, hourOf, weekdayOfDay, windowStart } from '../../../../shared/scrobbles/calendar.ts';

const reference = Date.parse('2025-03-10T12:00:00Z') / 1000;

describe('invalid scrobble classifier', () => {
  it('given a zero timestamp, then it is bucketed as zero', () => {
    expect(invalidKind(0, reference)).to.equal('zero');
  });
  it('given a timestamp before 2002-01-01, then it is bucketed as before_service', () => {
    expect(invalidKind(SERVICE_START_UTS - 1, reference)).to.equal('before_service');
    expect(invalidKind(-5, reference)).to.equal('before_service');
    expect(invalidKind(SERVICE_START_UTS, reference)).to.equal(null);
  });
  it('given a timestamp more than a day after the import, then it is bucketed as future', () => {
    expect(invalidKind(reference + 86_400, reference)).to.equal(null);
    expect(invalidKind(reference + 86_401, reference)).to.equal('future');
  });
  it('given an ordinary timestamp, then it is valid', () => {
    expect(invalidKind(reference - 3600, reference)).to.equal(null);
  });
});

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
