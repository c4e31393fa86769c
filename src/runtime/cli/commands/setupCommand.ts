import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';
import { DEFAULT_ALLOWANCE_DAYS, DEFAULT_BUDGET_USD } from './flagDefaults.js';

export const setupCommand: CommandSpec = {
  name: 'setup',
  summary:
    'fund (testnet faucet), register the signer key and confirm it Active; --jwt also logs in and approves the operator hub',
  usage: 'perpbot setup [--config FILE] [--jwt [--budget USD] [--allowance-days N]] [--i-understand-mainnet]',
  description:
    'Safe to run again: a registered account is not funded twice and an Active signer is not registered again.\n' +
    'On mainnet there is no faucet: deposit collateral to the account first.',
  flags: {
    ...CONFIG_FLAGS,
    jwt: {
      type: 'boolean',
      description: 'also log in (JWT) and grant the operator-hub allowance JWT orders need (implied by auth.mode: jwt)',
    },
    budget: {
      type: 'string',
      value: 'USD',
      description: `operator-hub budget in USD, spent by fill notional (default ${DEFAULT_BUDGET_USD})`,
    },
    'allowance-days': {
      type: 'string',
      value: 'N',
      description: `days until the allowance expires (default ${DEFAULT_ALLOWANCE_DAYS})`,
    },
    'log-level': { type: 'string', value: 'LEVEL', description: 'override logging.level of the config' },
  },
  run: async (args, io) => (await import('./runSetup.js')).runSetup(args, io),
};
