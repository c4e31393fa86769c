/**
 * The simulator's block interval when none is given: `perpbot sim`, `startSim` and the embedded
 * simulator (`sim.block_ms`) share it, so the docs' figures hold for each. Its own module: the
 * config schema reads it without loading the simulator.
 */
export const DEFAULT_BLOCK_MS = 250;
