export { VenueWsClient } from './venueWsClient.js';
