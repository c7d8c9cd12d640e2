import { API_PATHS, apiInfoSchema, clientInfoSchema, type ApiInfo, type ClientInfo } from '@mfa-portal/shared';
import { underBase } from './base-path';

export interface Settings {
  clientInfo: ClientInfo;
  apiInfo: ApiInfo;
}

/** The part of a zod schema the loader needs (keeps zod itself out of the web's dependencies). */
interface Parser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/**
 * GET one settings document. The body is read as text and then parsed; any failure
 * (network, non-OK status, invalid JSON, unexpected shape) yields null and is logged for the console.
 */
export async function loadSetting<T>(url: string, schema: Parser<T>, fetchImpl: typeof fetch = fetch): Promise<T | null> {
  try {
    const response = await fetchImpl(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) {
      console.error(`Settings ${url} answered ${response.status}.`);
      return null;
    }
    const text = await response.text();
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      console.error(`Settings ${url} do not have the expected shape.`, parsed.error);
      return null;
    }
    return parsed.data;
  } catch (error) {
    console.error(`Settings ${url} could not be loaded.`, error);
    return null;
  }
}

/** Both settings documents, fetched in parallel; null when either is missing. */
export async function loadSettings(basePath?: string, fetchImpl: typeof fetch = fetch): Promise<Settings | null> {
  const [clientInfo, apiInfo] = await Promise.all([
    loadSetting(underBase(API_PATHS.clientInfo, basePath), clientInfoSchema, fetchImpl),
    loadSetting(underBase(API_PATHS.apiInfo, basePath), apiInfoSchema, fetchImpl),
  ]);
  return clientInfo && apiInfo ? { clientInfo, apiInfo } : null;
}
