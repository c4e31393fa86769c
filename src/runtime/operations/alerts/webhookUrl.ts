import { PerpbotError } from '../../../core/perpbotError.js';
import { registerSecret } from '../../../core/secretRegistry.js';

/**
 * The webhook URL from the variable `alerts.webhook_url_env` names: set, a well-formed http(s) URL,
 * and known to the redactor from here on (chat webhooks carry their credential in the path), in
 * the form given and in the normalised form a URL parser or an error message would show. Errors
 * never show it.
 */
export function webhookUrlFrom(name: string, env: Readonly<Record<string, string | undefined>>): string {
  const url = env[name]?.trim();
  if (url === undefined || url === '') {
    throw new PerpbotError(`alerts.webhook_url_env names ${name}, which is not set`, {
      code: 'CONFIG_ALERTS',
      hints: [`export ${name}=https://hooks.example/...`, 'or remove the alerts: section'],
    });
  }
  registerSecret(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notHttp(name, 'is not a well-formed URL');
  }
  registerSecret(parsed.href);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw notHttp(name, 'is not an http(s) URL');
  if (parsed.pathname.length > 1) registerSecret(parsed.pathname);
  return parsed.href;
}

function notHttp(name: string, problem: string): PerpbotError {
  return new PerpbotError(`${name} ${problem} (value not shown)`, {
    code: 'CONFIG_ALERTS',
    hints: ['set it to the webhook URL the chat tool gave you, e.g. https://hooks.slack.com/services/...'],
  });
}
