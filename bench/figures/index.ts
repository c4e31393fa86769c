import type { FigureBench } from '../lib/figure.js';
import { engineOverhead } from './engineOverhead.js';
import { orderBurst } from './orderBurst.js';
import { orderBurst20ms } from './orderBurst20ms.js';
import { permitSign } from './permitSign.js';
import { quoteUptime } from './quoteUptime.js';
import { replay } from './replay.js';
import { simThroughput } from './simThroughput.js';
import { sweep } from './sweep.js';
import { tickToTrade } from './tickToTrade.js';
import { wsIngest } from './wsIngest.js';

/** Every figure `npm run bench` measures, in the order it measures them (the bench smoke test runs each). */
export const ALL_FIGURES: readonly FigureBench[] = [
  permitSign,
  wsIngest,
  orderBurst,
  orderBurst20ms,
  engineOverhead,
  tickToTrade,
  simThroughput,
  replay,
  sweep,
  quoteUptime,
];
