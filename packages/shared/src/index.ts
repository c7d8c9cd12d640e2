export * from './constants.js';
export * from './errors.js';
export * from './roles.js';
export * from './settings.js';
export * from './profile.js';
export * from './mfa-api.js';
export * from './admin-api.js';
export * from './phone-api.js';
