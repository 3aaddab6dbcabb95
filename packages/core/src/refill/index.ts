export { planRefills, pointAlong, type RefillInput, type RefillResult, type RefillPointLocal, type RefillRoutePiece } from './refill.js';
