import { expect } from 'chai';
import { type TestApp, startTestApp } from '../support/api.ts';
import { signedInAdmin } from '../support/given.ts';

describe('the service starts and answers', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('serves its OpenAPI document and an admin can list tasks', async () => {
    const admin = await signedInAdmin(app);
    expect((await admin.get('/openapi.json')).status).to.equal(200);
    const res = await admin.get('/admin/task-history');
    expect(res.status).to.equal(200);
    expect(res.body).to.include.keys('items', 'names', 'counts_by_status');
  });
});
