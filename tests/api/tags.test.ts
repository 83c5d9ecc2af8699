import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTags, tags, versions } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t.close());

describe('tags (ADMIN)', () => {
  it('creates a tag (black when no colour), which then lists in /tags/all', async () => {
    const created = await t.request('POST', '/api/tags', { token: acme.tokens.admin, body: { name: '  Falls risk ' } });
    expect(created.status).toBe(201);
    expect(created.body.tag).toEqual({ id: expect.any(Number), name: 'Falls risk', color: '#000000' });
    const coloured = await t.request('POST', '/api/tags', { token: acme.tokens.admin, body: { name: 'Diabetic', color: '#22C55E' } });
    expect(coloured.body.tag.color).toBe('#22c55e');
    const all = await t.request('GET', '/api/tags/all', { token: acme.tokens.practitioner });
    expect(all.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Diabetic', 'Falls risk', 'High needs']);
  });

  it('renames and recolours, and clears a colour back to black', async () => {
    const id = acme.tagIds[0];
    const renamed = await t.request('PUT', `/api/tags/${id}`, { token: acme.tokens.admin, body: { name: 'Very high needs' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.tag).toEqual({ id, name: 'Very high needs', color: '#ef4444' });
    const recoloured = await t.request('PUT', `/api/tags/${id}`, { token: acme.tokens.admin, body: { color: '#0000ff' } });
    expect(recoloured.body.tag).toEqual({ id, name: 'Very high needs', color: '#0000ff' });
    const cleared = await t.request('PUT', `/api/tags/${id}`, { token: acme.tokens.admin, body: { color: null } });
    expect(cleared.body.tag.color).toBe('#000000');
  });

  it('refuses duplicate names (any case) with 409 and bad input with 422', async () => {
    const duplicate = await t.request('POST', '/api/tags', { token: acme.tokens.admin, body: { name: 'falls RISK' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toBe("A tag named 'falls RISK' already exists.");
    const renameClash = await t.request('PUT', `/api/tags/${acme.tagIds[0]}`, { token: acme.tokens.admin, body: { name: 'Diabetic' } });
    expect(renameClash.status).toBe(409);
    // the same name in another business is fine
    expect((await t.request('POST', '/api/tags', { token: other.tokens.admin, body: { name: 'Falls risk' } })).status).toBe(201);
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/api/tags', { name: '' }, /name must NOT have fewer than 1 characters/],
      ['POST', '/api/tags', { name: '   ' }, /name must not be blank/],
      ['POST', '/api/tags', { name: 'x', color: 'red' }, /color must match pattern/],
      ['POST', '/api/tags', { color: '#000000' }, /name is required/],
      ['POST', '/api/tags', { name: 'x'.repeat(61) }, /name must NOT have more than 60 characters/],
      ['PUT', `/api/tags/${acme.tagIds[0]}`, {}, /must NOT have fewer than 1 properties/],
      ['PUT', `/api/tags/${acme.tagIds[0]}`, { colour: '#000000' }, /colour is not an allowed field/],
    ];
    for (const [method, url, body, message] of cases) {
      const response = await t.request(method, url, { token: acme.tokens.admin, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.message).toMatch(message);
    }
  });

  it('deletes a tag, removing it from clients and logging the change on each client', async () => {
    const created = await t.request('POST', '/api/tags', { token: acme.tokens.admin, body: { name: 'Temporary' } });
    const tagId = created.body.tag.id as number;
    await t.request('PUT', `/api/clients/${acme.clientIds[0]}/update_tags`, { token: acme.tokens.staff, body: { tag_ids: [tagId, acme.tagIds[0]] } });
    await t.request('PUT', `/api/clients/${acme.clientIds[1]}/update_tags`, { token: acme.tokens.staff, body: { tag_ids: [tagId] } });
    const deleted = await t.request('DELETE', `/api/tags/${tagId}`, { token: acme.tokens.admin });
    expect(deleted.status).toBe(204);
    expect(await t.ctx.db.select().from(clientTags).where(eq(clientTags.tag_id, tagId))).toEqual([]);
    expect(await t.ctx.db.select().from(tags).where(eq(tags.id, tagId))).toEqual([]);
    const client = await t.request('GET', `/api/clients/${acme.clientIds[0]}`, { token: acme.tokens.admin });
    expect(client.body.client.tags.map((tag: { id: number }) => tag.id)).toEqual([acme.tagIds[0]]);
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Client'), eq(versions.whodunnit, 'Ada acme')));
    expect(log.map((v) => [v.item_id, v.object_changes]).sort()).toEqual([
      [acme.clientIds[0], { tag_ids: [[acme.tagIds[0], tagId].sort((a, b) => a - b), [acme.tagIds[0]]] }],
      [acme.clientIds[1], { tag_ids: [[tagId], []] }],
    ]);
    expect((await t.request('DELETE', `/api/tags/${tagId}`, { token: acme.tokens.admin })).status).toBe(404);
  });

});
