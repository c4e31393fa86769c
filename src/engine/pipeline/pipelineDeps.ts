import type { AdmissionStageDeps } from '../admission/admissionStage.js';
import type { CheckStageDeps } from '../checks/checkStage.js';
import type { SendDeps } from '../sending/sendDeps.js';

/** What the stages of one intent need from the engine, built once per signing context and allocator. */
export interface PipelineDeps extends SendDeps, CheckStageDeps, AdmissionStageDeps {}
