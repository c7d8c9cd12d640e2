/**
 * The Web Push service stand-in (apps/server/test/support/push-service.ts), for the journeys: it makes
 * subscriptions the portal pushes to, checks each push's VAPID signature and decrypts its payload.
 */
export * from '../../../apps/server/test/support/push-service';
