import { useMemo } from 'react';
import { InteractionRequiredAuthError, type IPublicClientApplication } from '@azure/msal-browser';
import { useMsal } from '@azure/msal-react';
import { underBase } from '../../shell/base-path';
import { useSettings } from '../../shell/contexts';
import { ApiError, apiErrorFrom } from './api-error';

/** The part of a zod schema the client needs: responses are checked against the shared contract. */
export interface ResponseSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal | undefined;
  /** Schema of the success body; without one the body is ignored (204 answers). */
  schema?: ResponseSchema<T>;
}

export interface ApiClient {
  request<T = void>(path: string, options?: RequestOptions<T>): Promise<T>;
  /** A GET whose answer is text, not JSON (e.g. a CSV export); failures are ApiErrors as with `request`. */
  text(path: string, options?: Pick<RequestOptions<string>, 'query' | 'signal'>): Promise<string>;
  /** A GET answered by a stream of server-sent events: the OK response, its body still unread (read it with the same signal). */
  stream(path: string, options?: Pick<RequestOptions<never>, 'signal'>): Promise<Response>;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
}

/**
 * The API client (self-service and administration): a fresh bearer token before every call (MSAL renews an expired one
 * silently), JSON in and out, AbortSignal passed through, every failure turned into an ApiError with
 * the server's stable code (or a `client.*` code when no answer could be read).
 */
export function createApiClient(deps: { getAccessToken: () => Promise<string>; basePath?: string; fetchImpl?: typeof fetch }): ApiClient {
  /** Sends the call with a fresh bearer token; resolves to the OK response, or throws an ApiError. */
  async function send(path: string, options: RequestOptions<unknown>, accept: string): Promise<Response> {
    const { method = 'GET', body, query, signal } = options;
    const accessToken = await deps.getAccessToken();
    signal?.throwIfAborted();
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
    const url = underBase(path, deps.basePath) + (search.size ? `?${search.toString()}` : '');
    const headers: Record<string, string> = { Authorization: `Bearer ${accessToken}`, Accept: accept };
    if (body !== undefined) headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await (deps.fetchImpl ?? fetch)(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        signal,
      });
    } catch (error) {
      if (isAbort(error, signal)) throw error;
      throw new ApiError(0, 'client.network', error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw await apiErrorFrom(response);
    return response;
  }

  return {
    async request<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
      const { signal, schema } = options;
      const response = await send(path, options as RequestOptions<unknown>, 'application/json');
      if (!schema || response.status === 204) return undefined as T;
      let json: unknown;
      try {
        json = await response.json();
      } catch (error) {
        if (isAbort(error, signal)) throw error;
        throw new ApiError(response.status, 'client.unexpected_response', 'The answer is not JSON.');
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        console.error(`Unexpected answer from ${path}.`, parsed.error);
        throw new ApiError(response.status, 'client.unexpected_response', `The answer of ${path} does not match the API contract.`);
      }
      return parsed.data;
    },

    async text(path, options = {}) {
      const response = await send(path, options, 'text/csv, text/plain, */*');
      try {
        return await response.text();
      } catch (error) {
        if (isAbort(error, options.signal)) throw error;
        throw new ApiError(0, 'client.network', error instanceof Error ? error.message : String(error));
      }
    },

    stream(path, options = {}) {
      return send(path, options, 'text/event-stream');
    },
  };
}

/**
 * A token for the API scope from MSAL: from its cache while valid, renewed silently (refresh token or
 * hidden frame) otherwise. When the identity provider needs the user again, a `client.sign_in_required`
 * ApiError lets the screen offer "Sign in again".
 */
export async function acquireApiToken(instance: IPublicClientApplication, scope: string, redirectUri?: string): Promise<string> {
  const account = instance.getActiveAccount() ?? instance.getAllAccounts()[0];
  if (!account) throw new ApiError(401, 'client.sign_in_required', 'Nobody is signed in.');
  try {
    const result = await instance.acquireTokenSilent({ scopes: [scope], account, ...(redirectUri ? { redirectUri } : {}) });
    return result.accessToken;
  } catch (error) {
    if (error instanceof InteractionRequiredAuthError) throw new ApiError(401, 'client.sign_in_required', error.message);
    throw new ApiError(0, 'client.network', error instanceof Error ? error.message : String(error));
  }
}

/** The API client of the signed-in user (stable across renders). */
export function useApiClient(): ApiClient {
  const { instance } = useMsal();
  const { apiInfo, clientInfo } = useSettings();
  return useMemo(
    () => createApiClient({ getAccessToken: () => acquireApiToken(instance, apiInfo.scope, clientInfo.silentRedirectUri) }),
    [instance, apiInfo.scope, clientInfo.silentRedirectUri],
  );
}
