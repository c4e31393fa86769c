import type { RestClient } from '../../../venue/rest/restClient.js';
import type { Market } from '../../../venue/schemas/restMarkets.js';
import { ConfigError, type ConfigProblem } from '../../config/configError.js';
import type { Config } from '../../config/configSchema.js';
import { marketRows, marketsInOneLine } from './marketTable.js';
import type { VenueWait } from './untilDeadline.js';

/**
 * Every market a strategy names must exist on the venue: checked against the venue's market list
 * before anything is placed or cancelled, so a wrong id is a config error naming the entry and
 * listing the markets there are, not a venue refusal halfway through the start or at exit.
 */
export function checkConfiguredMarkets(config: Pick<Config, 'strategies'>, markets: readonly Market[]): void {
  const known = new Set(markets.map((m) => Number(m.market_id)));
  const problems: ConfigProblem[] = [];
  config.strategies.forEach((strategy, i) =>
    strategy.markets.forEach((id, j) => {
      if (!known.has(id))
        problems.push({
          path: `strategies[${i}].markets[${j}]`,
          problem: `market ${id} does not exist on this venue; its markets: ${marketsInOneLine(marketRows(markets))}`,
        });
    }),
  );
  const [first, ...rest] = problems;
  if (first !== undefined)
    throw new ConfigError([first, ...rest], { hints: ["`perpbot markets` prints the venue's markets as a table"] });
}

/** Reads the venue's markets (riding out a flaky venue) and checks the configured ones against them. */
export async function readAndCheckMarkets(
  config: Pick<Config, 'strategies'>,
  rest: Pick<RestClient, 'markets'>,
  wait: VenueWait,
): Promise<readonly Market[]> {
  const { markets } = await wait('reading the markets', (signal) => rest.markets({ signal }));
  checkConfiguredMarkets(config, markets);
  return markets;
}
