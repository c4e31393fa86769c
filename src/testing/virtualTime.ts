// The kit's virtual time is the runtime's (a flight replay runs on it too).
export { VirtualTime } from '../inProcess/virtualTime.js';
