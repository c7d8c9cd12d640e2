import type { FastifyInstance } from 'fastify';

/** The routes of the OpenAPI document the server publishes (`GET /api/docs`), for the fuzz suite. */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
}

export interface DocRoute {
  method: HttpMethod;
  /** OpenAPI path, `/api/admin/users/{upn}`. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body: JsonSchema | null;
}

interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export async function documentedRoutes(app: FastifyInstance): Promise<DocRoute[]> {
  const res = await app.inject({ url: '/api/docs' });
  if (res.statusCode !== 200) throw new Error(`GET /api/docs: ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, Operation>> };
  const routes: DocRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = op.parameters ?? [];
      routes.push({
        method: method.toUpperCase() as HttpMethod,
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        query: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}])),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return routes;
}
