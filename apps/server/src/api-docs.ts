import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.js';

/** The OpenAPI document (`api/docs`) of the JSON API, generated from the routes' zod schemas. */
export function openApiOptions(config: AppConfig) {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'MFA self-service portal API',
        version: '1.0.0',
        description: 'Self-service management of second factors. Errors are { code, message, details }.',
      },
      servers: [{ url: new URL(config.publicUrl).origin }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' },
          // The authenticator app: `Authorization: PortalDevice deviceId="…", ts="…", sig="…"` (ECDSA P-256 by the device key).
          portalDevice: { type: 'apiKey' as const, in: 'header' as const, name: 'Authorization' },
        },
      },
    },
    transform: jsonSchemaTransform,
  };
}
