import type { CommandSpec } from '../commandSpec.js';
import { cancelAllCommand } from './cancelAllCommand.js';
import { chaosCommand } from './chaosCommand.js';
import { checkCommand } from './checkCommand.js';
import { historyCommand } from './historyCommand.js';
import { keysCommand } from './keysCommand.js';
import { killSwitchCommand } from './killSwitchCommand.js';
import { marketsCommand } from './marketsCommand.js';
import { newCommand } from './newCommand.js';
import { probeCommand } from './probeCommand.js';
import { reconcileCommand } from './reconcileCommand.js';
import { recordCommand } from './recordCommand.js';
import { replayCommand } from './replayCommand.js';
import { revokeSignerCommand } from './revokeSignerCommand.js';
import { setupCommand } from './setupCommand.js';
import { simCommand } from './simCommand.js';
import { startCommand } from './startCommand.js';
import { statusCommand } from './statusCommand.js';
import { sweepCommand } from './sweepCommand.js';

/** Every `perpbot <command>`, in the order `perpbot --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  startCommand,
  setupCommand,
  probeCommand,
  recordCommand,
  replayCommand,
  sweepCommand,
  statusCommand,
  killSwitchCommand,
  marketsCommand,
  cancelAllCommand,
  revokeSignerCommand,
  keysCommand,
  simCommand,
  historyCommand,
  reconcileCommand,
  chaosCommand,
  newCommand,
  checkCommand,
];
