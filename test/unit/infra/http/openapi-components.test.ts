import { expect } from 'chai';
import { z } from 'zod';
import { ComponentSchemas } from '../../../../infra/http/openapi-components.ts';
import { openApiDocument } from '../../../../infra/http/openapi.ts';
import { routes } from '../../../../infra/routes.ts';

/** Raise it when resources get named; a generated client must never lose a named type. */
const NAMED_SCHEMAS_AT_LEAST = 24;

describe('OpenAPI for generated clients', () => {
  const document = openApiDocument(routes) as any;
  const schemas = document.components.schemas as Record<string, unknown>;
  const text = JSON.stringify(document);

  it(`names at least ${NAMED_SCHEMAS_AT_LEAST} component schemas, the resources among them`, () => {
    expect(Object.keys(schemas).length).to.be.at.least(NAMED_SCHEMAS_AT_LEAST);
    expect(schemas).to.include.keys('User', 'Task', 'TaskStarted', 'CanonicalEntity', 'ExternalRef', 'Scrobble', 'Playlist', 'Note', 'Favorite', 'ScrobblerDashboard', 'ErrorMessage', 'HTTPValidationError');
  });

  it('points at them with $ref, and every $ref leads to a component', () => {
    expect(text).not.to.include('#/$defs/');
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).to.include.members(['User', 'Task', 'CanonicalEntity']);
    for (const ref of new Set(refs)) expect(schemas, ref).to.have.property(ref);
  });

  it('describes every tag', () => {
    const used = new Set(routes.map((r) => r.tag));
    expect(document.tags.map((t: { name: string }) => t.name)).to.have.members([...used]);
    for (const tag of document.tags) expect(tag.description, tag.name).to.be.a('string').and.not.equal(tag.name);
  });

  it('documents the cross-origin 403 and the 415 on writes with a body, and neither on reads', () => {
    const login = document.paths['/auth/login'].post.responses;
    expect(login['403'].description).to.match(/Cross-origin/);
    expect(login['415'].description).to.match(/application\/json/);
    const me = document.paths['/auth/me'].get.responses;
    expect(me).not.to.have.any.keys('403', '415');
  });

  it('shows an example with every request body, one its route accepts', () => {
    for (const route of routes.filter((r) => r.body)) {
      const content = Object.values(document.paths[route.path][route.method].requestBody.content)[0] as { example?: unknown };
      expect(content.example, `${route.method} ${route.path}`).to.not.equal(undefined);
      expect(route.body!.safeParse(content.example).success, `${route.method} ${route.path}`).to.equal(true);
    }
  });

  it('given a named schema whose request form differs from its response form, then both are components', () => {
    const Named = z.object({ limit: z.number().default(20) }).meta({ id: 'TestPaging' });
    const components = new ComponentSchemas({});
    expect(components.convert(z.array(Named), 'output')).to.deep.equal({ type: 'array', items: { $ref: '#/components/schemas/TestPaging' } });
    expect(components.convert(Named, 'input')).to.deep.equal({ $ref: '#/components/schemas/TestPagingInput' });
    expect((components.schemas.TestPaging as { required: string[] }).required).to.deep.equal(['limit']);
    expect(components.schemas.TestPagingInput).to.not.have.property('required');
  });
});
