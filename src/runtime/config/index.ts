export { ConfigError } from './configError.js';
export { type Config } from './configSchema.js';
export { loadConfig } from './loadConfig.js';
