import { expect } from 'chai';
import { FIRST_WINDOW, nextWindow, storedCursor } from '../../../../command/scrobbler/import-scrobbles.task.ts';

describe('bulk import windows', () => {
  it('given the first page, then the next window ends just past its oldest scrobble', () => {
    expect(nextWindow(FIRST_WINDOW, 1_000)).to.deep.equal({ to: 1_001, page: 1, pages: 1 });
  });

  it('given a page older than its window, then the window moves down', () => {
    expect(nextWindow({ to: 1_001, page: 1, pages: 1 }, 500)).to.deep.equal({ to: 501, page: 1, pages: 2 });
  });

  it('given a whole page at one second, then the same window is read at its next page', () => {
    expect(nextWindow({ to: 1_001, page: 1, pages: 3 }, 1_000)).to.deep.equal({ to: 1_001, page: 2, pages: 4 });
    expect(nextWindow({ to: 1_001, page: 2, pages: 4 }, 999)).to.deep.equal({ to: 1_000, page: 1, pages: 5 });
  });

  it('reads a stored cursor, one recorded under a fixed bound before windows, and refuses junk', () => {
    expect(storedCursor({ to: null, page: 1, pages: 0 })).to.deep.equal(FIRST_WINDOW);
    expect(storedCursor({ to: 1_700_000_000, page: 4 })).to.deep.equal({ to: 1_700_000_000, page: 4, pages: 3 });
    for (const junk of [undefined, null, 'x', { to: 'a', page: 1 }, { to: 1, page: 0 }, { to: 1.5, page: 1 }]) expect(storedCursor(junk)).to.equal(undefined);
  });
});
