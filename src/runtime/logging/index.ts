export { createLogger, createSilentLogger, type Logger, type LoggerOptions } from './createLogger.js';
export { REDACTED, redactSecrets, redactSecretsInText } from './redactSecrets.js';
export { isSecretLogKey, SECRET_LOG_KEYS, secretRedactionPaths } from './secretLogKeys.js';
export { logIntentOutcome } from './logIntentOutcome.js';
